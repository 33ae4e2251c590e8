/// Reads the declarations of a model file into a ``DeclarationTree``.
///
/// Accepted: `import`; `struct`, `enum` and `extension` declarations, nested; stored and computed
/// properties, `static` members, `lazy` properties, property observers; functions, initializers and
/// subscripts (their bodies are skipped); enum cases with `String` or integer raw values; attributes
/// `@available`, `@frozen`, `@MainActor`, `@preconcurrency`, `@usableFromInline` (any attribute on a
/// function, initializer, computed or static property); access and other modifiers; `#if` … `#endif`
/// without `#else` (the body is read as if the condition holds); `#Preview` and `#warning`.
///
/// Refused with the file and line: classes, actors, protocols, typealiases, generic types, `indirect`
/// enums, enum cases with associated values, attributes on stored properties (property wrappers and
/// macros), `weak`/`unowned`, tuple patterns and several bindings in one `let`/`var`, `#else`, and a
/// custom `init(from:)` (the decoding it performs cannot be known from its declaration).
struct DeclarationParser {
    private enum Context {
        case file
        case type(Int)
        case extensionBody(Int)
    }

    let tokens: [Token]
    let file: String
    var position = 0
    private var tree = DeclarationTree()
    private var openConditionals: [Int] = []

    static let maxNesting = 32
    private static let typeAttributes: Set<String> = ["available", "frozen", "MainActor", "preconcurrency", "usableFromInline"]
    private static let storedPropertyAttributes: Set<String> = ["available", "usableFromInline"]
    private static let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "open", "package", "final", "static", "mutating",
        "nonmutating", "override", "required", "convenience", "dynamic", "nonisolated", "lazy", "optional",
        "isolated", "distributed", "consuming", "borrowing", "__consuming",
    ]

    init(tokens: [Token], file: String) {
        self.tokens = tokens
        self.file = file
    }

    static func parse(source: String, file: String) throws(ModelError) -> DeclarationTree {
        var parser = DeclarationParser(tokens: try SwiftLexer.tokenize(source: source, file: file), file: file)
        try parser.parseMembers(in: .file, depth: 0)
        if let line = parser.openConditionals.last { throw parser.error(line, "#if without a matching #endif") }
        return parser.tree
    }

    // MARK: Members

    private mutating func parseMembers(in context: Context, depth: Int) throws(ModelError) {
        while true {
            let token = current
            if token.kind == .endOfFile {
                if case .file = context { return }
                throw error(token.line, "missing '}' at the end of the file")
            }
            if token.isPunctuation("}") {
                if case .file = context { throw error(token.line, "unexpected '}'") }
                return
            }
            if token.isPunctuation(";") {
                advance()
                continue
            }
            if token.isPunctuation("#") {
                try parseDirective(in: context)
                continue
            }
            try parseDeclaration(in: context, depth: depth)
        }
    }

    private mutating func parseDirective(in context: Context) throws(ModelError) {
        let hash = current
        advance()
        guard current.kind == .identifier else { throw error(hash.line, "unexpected '#'") }
        let name = current.text
        advance()
        switch name {
        case "if":
            openConditionals.append(hash.line)
            skipRestOfLine()
        case "endif":
            guard openConditionals.popLast() != nil else { throw error(hash.line, "#endif without #if") }
        case "else", "elseif":
            throw error(hash.line, "#\(name) is outside the supported subset: which branch the app compiles cannot be known here")
        case "Preview", "warning":
            if current.isPunctuation("(") && !current.startsLine { try skipBalanced() }
            if current.isPunctuation("{") { try skipBalanced() }
        default:
            throw error(hash.line, "#\(name) is outside the supported subset")
        }
    }

    private mutating func parseDeclaration(in context: Context, depth: Int) throws(ModelError) {
        let attributes = try parseAttributes()
        var modifiers: Set<String> = []
        while true {
            let token = current
            guard token.kind == .identifier, !token.isEscaped else { break }
            if token.text == "class", ["var", "let", "func", "subscript", "final", "override"].contains(peek(1).text) {
                modifiers.insert("static")
                advance()
                continue
            }
            if token.text == "weak" || token.text == "unowned" {
                throw error(token.line, "'\(token.text)' references are outside the supported subset")
            }
            if token.text == "indirect" {
                throw error(token.line, "indirect enums and cases are outside the supported subset")
            }
            guard Self.modifiers.contains(token.text) else { break }
            modifiers.insert(token.text)
            advance()
            // private(set), nonisolated(unsafe), …
            if current.isPunctuation("("), !current.startsLine, peek(1).kind == .identifier, peek(2).isPunctuation(")") {
                advance(3)
            }
        }
        let keyword = current
        guard keyword.kind == .identifier, !keyword.isEscaped else {
            throw error(keyword.line, "expected a declaration, found '\(keyword.text)'")
        }
        switch keyword.text {
        case "import":
            guard case .file = context else { throw error(keyword.line, "import inside a type") }
            advance()
            skipRestOfLine()
        case "struct", "enum":
            try checkAttributes(attributes, allowed: Self.typeAttributes, what: "a type")
            try parseType(keyword.text == "struct" ? .structure : .enumeration, in: context, depth: depth)
        case "extension":
            guard case .file = context else { throw error(keyword.line, "extension inside a type") }
            try checkAttributes(attributes, allowed: Self.typeAttributes, what: "an extension")
            try parseExtension(depth: depth)
        case "let", "var":
            try parseVariable(in: context, attributes: attributes, modifiers: modifiers)
        case "case":
            guard case .type(let index) = context, tree.types[index].kind == .enumeration else {
                throw error(keyword.line, "'case' outside an enum")
            }
            try checkAttributes(attributes, allowed: ["available"], what: "an enum case")
            try parseCases(into: index)
        case "func", "subscript":
            try skipFunction()
        case "init":
            try parseInitializer()
        case "class", "actor", "protocol":
            throw error(keyword.line, "\(keyword.text) declarations are outside the supported subset (structs and enums only)")
        case "typealias":
            throw error(keyword.line, "typealias is outside the supported subset; write the type itself")
        default:
            throw error(keyword.line, "'\(keyword.text)' is outside the supported subset")
        }
    }

    // MARK: Attributes

    private mutating func parseAttributes() throws(ModelError) -> [(name: String, line: Int)] {
        var attributes: [(name: String, line: Int)] = []
        while current.isPunctuation("@") {
            let at = current
            advance()
            guard current.kind == .identifier else { throw error(at.line, "expected an attribute name after '@'") }
            attributes.append((current.text, at.line))
            advance()
            if current.isPunctuation("("), !current.startsLine { try skipBalanced() }
        }
        return attributes
    }

    private func checkAttributes(_ attributes: [(name: String, line: Int)], allowed: Set<String>, what: String) throws(ModelError) {
        for attribute in attributes where !allowed.contains(attribute.name) {
            throw error(attribute.line, "@\(attribute.name) on \(what) is outside the supported subset")
        }
    }

    // MARK: Types and extensions

    private mutating func parseType(_ kind: TypeDeclSyntax.Kind, in context: Context, depth: Int) throws(ModelError) {
        let keyword = current
        guard depth < Self.maxNesting else { throw error(keyword.line, "types nested too deeply") }
        advance()
        let name = try expectIdentifier("a type name")
        if current.isPunctuation("<") { throw error(current.line, "generic type '\(name)' is outside the supported subset") }
        let inherited = current.isPunctuation(":") ? try parseInheritance() : []
        if current.isKeyword("where") { throw error(current.line, "where clauses are outside the supported subset") }
        let parent: Int?
        switch context {
        case .file: parent = nil
        case .type(let index): parent = index
        case .extensionBody: parent = nil // set when the extension is merged into its type
        }
        let index = tree.types.count
        tree.types.append(TypeDeclSyntax(kind: kind, name: name, line: keyword.line, parent: parent, inherited: inherited))
        switch context {
        case .file: tree.topLevel.append(index)
        case .type(let outer): tree.types[outer].nested.append(index)
        case .extensionBody(let outer): tree.extensions[outer].nested.append(index)
        }
        try expectPunctuation("{")
        try parseMembers(in: .type(index), depth: depth + 1)
        try expectPunctuation("}")
    }

    private mutating func parseExtension(depth: Int) throws(ModelError) {
        let keyword = current
        advance()
        var path = [try expectIdentifier("the extended type's name")]
        while current.isPunctuation("."), peek(1).kind == .identifier {
            advance()
            path.append(current.text)
            advance()
        }
        if current.isPunctuation("<") { throw error(current.line, "generic arguments in an extension are outside the supported subset") }
        let inherited = current.isPunctuation(":") ? try parseInheritance() : []
        if current.isKeyword("where") { throw error(current.line, "where clauses are outside the supported subset") }
        let index = tree.extensions.count
        tree.extensions.append(ExtensionSyntax(path: path, line: keyword.line, inherited: inherited))
        try expectPunctuation("{")
        try parseMembers(in: .extensionBody(index), depth: depth + 1)
        try expectPunctuation("}")
    }

    /// After `:`: names separated by `,` or `&`; `@unchecked`, `@retroactive`, `@preconcurrency` skipped.
    private mutating func parseInheritance() throws(ModelError) -> [[String]] {
        advance()
        var names: [[String]] = []
        repeat {
            if current.isPunctuation(",") || current.isPunctuation("&") { advance() }
            while current.isPunctuation("@"), peek(1).kind == .identifier,
                  ["unchecked", "retroactive", "preconcurrency"].contains(peek(1).text) {
                advance(2)
            }
            if current.isPunctuation("~") { throw error(current.line, "suppressed conformances (~) are outside the supported subset") }
            var path = [try expectIdentifier("a protocol or raw type name")]
            while current.isPunctuation("."), peek(1).kind == .identifier {
                advance()
                path.append(current.text)
                advance()
            }
            if current.isPunctuation("<") { throw error(current.line, "generic arguments in an inheritance clause are outside the supported subset") }
            names.append(path)
        } while current.isPunctuation(",") || current.isPunctuation("&")
        return names
    }

    // MARK: Properties

    private mutating func parseVariable(in context: Context, attributes: [(name: String, line: Int)], modifiers: Set<String>) throws(ModelError) {
        let keyword = current
        let isLet = keyword.text == "let"
        advance()
        if current.isPunctuation("(") { throw error(current.line, "tuple patterns are outside the supported subset") }
        let name = try expectIdentifier("a property name")
        var type: TypeSyntax?
        // A type outside the subset matters only if the property turns out to be decoded
        // (`var body: some View { … }` is fine).
        var typeError: ModelError?
        if current.isPunctuation(":") {
            advance()
            do {
                type = try parseTypeSyntax(depth: 0)
            } catch {
                typeError = error
                try skipTypeTokens()
            }
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
        if current.isPunctuation(",") { throw error(current.line, "declare one property per let/var") }

        let isStatic = modifiers.contains("static")
        let isLazy = modifiers.contains("lazy")
        guard !isStatic, !isComputed, !isLazy else { return } // not part of the synthesized Codable form
        if case .file = context { return } // a global
        if let typeError { throw typeError }
        let typeIndex: Int
        switch context {
        case .file: return
        case .extensionBody: throw error(keyword.line, "extensions cannot contain stored property '\(name)'")
        case .type(let index): typeIndex = index
        }
        guard tree.types[typeIndex].kind == .structure else {
            throw error(keyword.line, "enums cannot contain stored property '\(name)'")
        }
        try checkAttributes(attributes, allowed: Self.storedPropertyAttributes, what: "a stored property (property wrappers and macros change what is decoded)")
        if type == nil {
            switch initializer {
            case .none: throw error(keyword.line, "property '\(name)' has neither a type nor an initial value")
            case .expression where !isLet:
                throw error(keyword.line, "the type of '\(name)' is inferred from an expression; write its type")
            default: break
            }
        }
        tree.types[typeIndex].properties.append(PropertySyntax(name: name, line: keyword.line, isLet: isLet, type: type, initializer: initializer))
    }

    // MARK: Enum cases

    private mutating func parseCases(into index: Int) throws(ModelError) {
        advance() // case
        repeat {
            if current.isPunctuation(",") { advance() }
            let line = current.line
            let name = try expectIdentifier("a case name")
            if current.isPunctuation("(") {
                throw error(line, "enum case '\(name)' has associated values, which are outside the supported subset")
            }
            var rawValue: CaseSyntax.RawValue?
            if current.isPunctuation("=") {
                advance()
                rawValue = try parseRawValue(for: name)
            }
            tree.types[index].cases.append(CaseSyntax(name: name, line: line, rawValue: rawValue))
        } while current.isPunctuation(",")
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
        guard current.kind == .number, let magnitude = Self.integerLiteral(current.text) else {
            throw error(token.line, "the raw value of case '\(name)' must be a string or integer literal")
        }
        advance()
        return .integer(IntegerValue(negative: negative, magnitude: magnitude))
    }

    // MARK: Token helpers

    var current: Token { tokens[min(position, tokens.count - 1)] }

    func peek(_ offset: Int) -> Token { tokens[min(position + offset, tokens.count - 1)] }

    mutating func advance(_ count: Int = 1) { position = min(position + count, tokens.count - 1) }

    mutating func expectIdentifier(_ what: String) throws(ModelError) -> String {
        guard current.kind == .identifier else { throw error(current.line, "expected \(what), found '\(current.text)'") }
        defer { advance() }
        return current.text
    }

    mutating func expectPunctuation(_ text: String) throws(ModelError) {
        guard current.isPunctuation(text) else {
            throw error(current.line, "expected '\(text)', found '\(current.kind == .endOfFile ? "end of file" : current.text)'")
        }
        advance()
    }

    mutating func skipRestOfLine() {
        while current.kind != .endOfFile, !current.startsLine, !current.isPunctuation(";") { advance() }
    }

    /// At an opening `(`, `[` or `{`: skips to just past its matching closer.
    mutating func skipBalanced() throws(ModelError) {
        let open = current
        var stack: [String] = []
        repeat {
            let token = current
            guard token.kind != .endOfFile else { throw error(open.line, "unbalanced '\(open.text)'") }
            if token.kind == .punctuation {
                switch token.text {
                case "(": stack.append(")")
                case "[": stack.append("]")
                case "{": stack.append("}")
                case ")", "]", "}":
                    guard stack.popLast() == token.text else { throw error(token.line, "unbalanced '\(token.text)'") }
                default: break
                }
            }
            advance()
        } while !stack.isEmpty
    }

    func error(_ line: Int, _ message: String) -> ModelError {
        ModelError(file: file, line: line, message: message)
    }
}

extension PropertySyntax.Initializer {
    var isPresent: Bool {
        if case .none = self { return false }
        return true
    }
}
