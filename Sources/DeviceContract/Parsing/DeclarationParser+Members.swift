/// Stored properties (one or several a `let`/`var`), enum cases and type aliases.
extension DeclarationParser {
    private struct Binding {
        let name: String
        let line: Int
        var type: TypeSyntax?
        let initializer: PropertySyntax.Initializer
        let isComputed: Bool
    }

    // MARK: Properties

    mutating func parseVariable(in context: Context, attributes: [(name: String, line: Int)], modifiers: Set<String>) throws(ModelError) {
        let keyword = current
        advance()
        if current.isPunctuation("(") { return try skipTuplePattern(in: context) }
        var bindings: [Binding] = []
        repeat {
            if current.isPunctuation(",") { advance() }
            bindings.append(try parseBinding())
        } while current.isPunctuation(",")
        // `var home, away: Int`: a name without a type or value takes the type written after it.
        for index in bindings.indices.reversed() where bindings[index].type == nil && !bindings[index].initializer.isPresent {
            bindings[index].type = bindings[(index + 1)...].first { $0.type != nil }?.type
        }
        guard !modifiers.contains("static"), !modifiers.contains("lazy") else { return } // not part of the synthesized Codable form
        let typeIndex: Int
        switch context {
        case .file: return // a global
        case .extensionBody:
            guard let stored = bindings.first(where: { !$0.isComputed }) else { return }
            throw error(stored.line, "extensions cannot contain stored property '\(stored.name)'")
        case .type(let index): typeIndex = index
        }
        let wrapper = attributes.first { !Self.storedPropertyAttributes.contains($0.name) }.map { "@" + $0.name }
            ?? (modifiers.contains("weak") ? "weak" : modifiers.contains("unowned") ? "unowned" : nil)
        for binding in bindings where !binding.isComputed {
            guard tree.types[typeIndex].isStruct else {
                throw error(binding.line, "enums cannot contain stored property '\(binding.name)'")
            }
            if binding.type == nil, !binding.initializer.isPresent {
                throw error(binding.line, "property '\(binding.name)' has neither a type nor an initial value")
            }
            tree.types[typeIndex].properties.append(PropertySyntax(
                name: binding.name, line: binding.line, isLet: keyword.text == "let", type: binding.type,
                initializer: binding.initializer, wrapper: wrapper))
        }
    }

    /// One `name: Type = value { accessors }`, up to the `,` or the end of the declaration.
    private mutating func parseBinding() throws(ModelError) -> Binding {
        let line = current.line
        let name = try expectIdentifier("a property name")
        var type: TypeSyntax?
        if current.isPunctuation(":") {
            advance()
            type = try parseTypeLeniently()
        }
        var initializer = PropertySyntax.Initializer.none
        if current.isPunctuation("=") {
            advance()
            initializer = try skipExpression()
        }
        var isComputed = false
        if current.isPunctuation("{") {
            isComputed = !isObserverBlock()
            if isComputed && initializer.isPresent { throw error(current.line, "a property with an initial value cannot have a getter") }
            try skipBalanced()
        }
        return Binding(name: name, line: line, type: type, initializer: initializer, isComputed: isComputed)
    }

    /// A type annotation; one this reader does not follow (`some View`, a closure) is kept as
    /// ``TypeSyntax/unreadable(_:line:)``, an error only if the property turns out to be decoded.
    private mutating func parseTypeLeniently() throws(ModelError) -> TypeSyntax {
        let start = position
        do {
            return try parseTypeSyntax(depth: 0)
        } catch {
            position = start
            try skipTypeTokens()
            return .unreadable(error.message, line: error.line)
        }
    }

    /// `let (a, b) = …`: the names are not read; a struct holding one cannot be checked.
    private mutating func skipTuplePattern(in context: Context) throws(ModelError) {
        let line = current.line
        try skipBalanced()
        if current.isPunctuation(":") {
            advance()
            _ = try parseTypeLeniently()
        }
        if current.isPunctuation("=") {
            advance()
            _ = try skipExpression()
        }
        markUnchecked(context, "a tuple pattern declares some of its properties", line: line)
    }

    // MARK: Type aliases

    mutating func parseTypeAlias(in context: Context) throws(ModelError) {
        let keyword = current
        advance()
        let name = try expectIdentifier("a type alias name")
        var generic = false
        if current.isPunctuation("<") {
            generic = true
            try skipGenericParameters()
        }
        try expectPunctuation("=")
        let aliased = try parseTypeLeniently()
        if current.isKeyword("where") { skipRestOfLine() }
        let parent: Int?
        if case .type(let index) = context { parent = index } else { parent = nil }
        let index = tree.types.count
        tree.types.append(TypeDeclSyntax(kind: .alias(aliased), name: name, line: keyword.line, parent: parent, inherited: []))
        if generic { tree.types[index].unchecked = ("a generic type alias", keyword.line) }
        switch context {
        case .file: tree.topLevel.append(index)
        case .type(let outer): tree.types[outer].nested.append(index)
        case .extensionBody(let outer): tree.extensions[outer].nested.append(index)
        }
    }

    // MARK: Enum cases

    mutating func parseCases(into index: Int) throws(ModelError) {
        advance() // case
        repeat {
            if current.isPunctuation(",") { advance() }
            let line = current.line
            let name = try expectIdentifier("a case name")
            var associated: [CaseSyntax.Associated]?
            if current.isPunctuation("(") { associated = try parseAssociatedValues() }
            var rawValue: CaseSyntax.RawValue?
            if current.isPunctuation("=") {
                advance()
                rawValue = try parseRawValue(for: name)
            }
            tree.types[index].cases.append(CaseSyntax(name: name, line: line, rawValue: rawValue, associated: associated))
        } while current.isPunctuation(",")
    }

    /// `(Int, label: String, _ other: Bool = false)`: each value's label and type.
    private mutating func parseAssociatedValues() throws(ModelError) -> [CaseSyntax.Associated] {
        advance() // (
        var values: [CaseSyntax.Associated] = []
        while !current.isPunctuation(")") {
            var label: String?
            if current.kind == .identifier, peek(1).isPunctuation(":") {
                label = current.text == "_" ? nil : current.text
                advance(2)
            } else if current.kind == .identifier, peek(1).kind == .identifier, peek(2).isPunctuation(":") {
                label = current.text == "_" ? nil : current.text
                advance(3)
            }
            values.append(CaseSyntax.Associated(label: label, type: try parseTypeLeniently()))
            if current.isPunctuation("=") {
                advance()
                _ = try skipExpression()
            }
            guard current.isPunctuation(",") || current.isPunctuation(")") else {
                throw error(current.line, "expected ',' or ')' in associated values, found '\(current.text)'")
            }
            if current.isPunctuation(",") { advance() }
        }
        advance() // )
        return values
    }

    private mutating func parseRawValue(for name: String) throws(ModelError) -> CaseSyntax.RawValue {
        let token = current
        if token.kind == .string {
            guard let value = token.stringValue else {
                throw error(token.line, "the raw value of case '\(name)' must be a plain single-line string literal")
            }
            advance()
            return .string(value)
        }
        var negative = false
        if token.isPunctuation("-") {
            negative = true
            advance()
        }
        guard current.kind == .number else {
            throw error(token.line, "the raw value of case '\(name)' must be a string or number literal")
        }
        guard let magnitude = Self.integerLiteral(current.text) else {
            advance()
            return .floating
        }
        advance()
        return .integer(IntegerValue(negative: negative, magnitude: magnitude))
    }
}
