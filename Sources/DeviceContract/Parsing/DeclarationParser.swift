/// Reads the declarations of a model file into a ``DeclarationTree``, after ``ConditionalCompilation`` has
/// kept the tokens the device's build compiles.
///
/// Read: `import`; `struct`, `enum`, `extension` and `typealias` declarations, nested; stored properties
/// (several in one `let`/`var` too) and their attributes; enum cases with raw values or associated
/// values. Skipped: computed, `static` and `lazy` properties, property observers, functions, initializers,
/// subscripts and `deinit` (their bodies unread); freestanding macros (`#Preview(…) { … } contentStates: { … }`)
/// and their trailing closures; classes, actors and protocols (recorded by name, their bodies unread).
///
/// What cannot be known from a declaration is recorded on it rather than refused (``TypeDeclSyntax/unchecked``):
/// a custom `init(from:)`, a generic type, an attribute or macro that may change a type's members, a
/// property wrapper. Syntax errors are refused with the file and line.
struct DeclarationParser {
    enum Context {
        case file
        case type(Int)
        case extensionBody(Int)
    }

    let tokens: [Token]
    let file: String
    var position = 0
    var tree = DeclarationTree()

    static let maxNesting = 32
    /// Swift's keywords that no name may be without backquotes (the contextual ones, `get`, `open`, `type`
    /// …, may).
    static let reservedWords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false", "is", "nil", "self",
        "super", "throws", "true", "try",
    ]
    /// Attributes on a type or extension that do not change how it decodes.
    static let typeAttributes: Set<String> = [
        "available", "frozen", "MainActor", "preconcurrency", "usableFromInline", "dynamicMemberLookup", "propertyWrapper",
        "resultBuilder", "objc", "nonobjc", "globalActor", "_spi", "inlinable", "_implementationOnly", "unchecked", "retroactive",
    ]
    static let storedPropertyAttributes: Set<String> = ["available", "usableFromInline"]
    private static let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "open", "package", "final", "static", "mutating",
        "nonmutating", "override", "required", "convenience", "dynamic", "nonisolated", "lazy", "optional",
        "isolated", "distributed", "consuming", "borrowing", "__consuming", "indirect", "weak", "unowned",
    ]

    init(tokens: [Token], file: String) {
        self.tokens = tokens
        self.file = file
    }

    static func parse(source: String, file: String, conditions: CompilationConditions) throws(ModelError) -> DeclarationTree {
        let lexed = try SwiftLexer.tokenize(source: source, file: file)
        let tokens = try ConditionalCompilation.activeTokens(lexed, conditions: conditions, file: file)
        var parser = DeclarationParser(tokens: tokens, file: file)
        try parser.parseMembers(in: .file, depth: 0)
        return parser.tree
    }

    // MARK: Members

    mutating func parseMembers(in context: Context, depth: Int) throws(ModelError) {
        while true {
            let token = current
            if token.kind == .endOfFile {
                if case .file = context { return }
                throw error(at: token, "missing '}' at the end of the file")
            }
            if token.isPunctuation("}") {
                if case .file = context { throw error(at: token, "unexpected '}'") }
                return
            }
            if token.isPunctuation(";") {
                advance()
                continue
            }
            if token.isPunctuation("#") {
                try parseFreestandingMacro(in: context)
                continue
            }
            try parseDeclaration(in: context, depth: depth)
            if !current.startsLine, current.kind != .endOfFile, !current.isPunctuation(";"), !current.isPunctuation("}") {
                throw error(at: current, "consecutive declarations on a line must be separated by ';', found '\(current.text)'")
            }
        }
    }

    /// `#name`, its arguments and trailing closures (`#Preview("…") { … } contentStates: { … }`). In a type's
    /// body (other than `#warning`), a macro may declare members, so the type's decoding cannot be known.
    private mutating func parseFreestandingMacro(in context: Context) throws(ModelError) {
        let hash = current
        advance()
        guard current.kind == .identifier else { throw error(hash.line, "unexpected '#'") }
        let name = current.text
        advance()
        if name == "error" { throw error(hash.line, "the app's build stops at this #error") }
        if current.isPunctuation("<"), !current.startsLine { try skipGenericParameters() }
        if current.isPunctuation("("), !current.startsLine { try skipBalanced() }
        try skipTrailingClosures()
        guard name != "warning", name != "sourceLocation" else { return }
        markUnchecked(context, "the macro #\(name) in its body may declare members", line: hash.line)
    }

    /// `{ … }` and then any `label: { … }`.
    mutating func skipTrailingClosures() throws(ModelError) {
        guard current.isPunctuation("{") else { return }
        try skipBalanced()
        while current.kind == .identifier, peek(1).isPunctuation(":"), peek(2).isPunctuation("{") {
            advance(2)
            try skipBalanced()
        }
    }

    mutating func markUnchecked(_ context: Context, _ reason: String, line: Int) {
        switch context {
        case .file: return
        case .type(let index): if tree.types[index].unchecked == nil { tree.types[index].unchecked = (reason, line) }
        case .extensionBody(let index): if tree.extensions[index].unchecked == nil { tree.extensions[index].unchecked = (reason, line) }
        }
    }

    private mutating func parseDeclaration(in context: Context, depth: Int) throws(ModelError) {
        let attributes = try parseAttributes()
        let modifiers = parseModifiers()
        let keyword = current
        guard keyword.kind == .identifier, !keyword.isEscaped else {
            throw error(keyword.line, "expected a declaration, found '\(keyword.text)'")
        }
        switch keyword.text {
        case "import":
            advance()
            skipRestOfLine()
        case "struct", "enum":
            try parseType(keyword.text == "struct" ? .structure : .enumeration, attributes: attributes, in: context, depth: depth)
        case "class", "actor", "protocol":
            try parseType(.other(keyword.text), attributes: attributes, in: context, depth: depth)
        case "extension":
            guard case .file = context else { throw error(keyword.line, "extension inside a type") }
            try parseExtension(attributes: attributes, depth: depth)
        case "typealias":
            try parseTypeAlias(in: context)
        case "let", "var":
            try parseVariable(in: context, attributes: attributes, modifiers: modifiers)
        case "case":
            guard case .type(let index) = context, tree.types[index].isEnum else {
                throw error(keyword.line, "'case' outside an enum")
            }
            try parseCases(into: index)
        case "func", "subscript", "deinit", "macro", "associatedtype", "operator", "precedencegroup":
            try skipFunction()
        case "init":
            try parseInitializer(in: context)
        default:
            throw error(keyword.line, "expected a declaration, found '\(keyword.text)'")
        }
    }

    private mutating func parseModifiers() -> Set<String> {
        var modifiers: Set<String> = []
        while true {
            let token = current
            guard token.kind == .identifier, !token.isEscaped else { break }
            if token.text == "class", ["var", "let", "func", "subscript", "final", "override"].contains(peek(1).text) {
                modifiers.insert("static")
                advance()
                continue
            }
            guard Self.modifiers.contains(token.text) else { break }
            modifiers.insert(token.text)
            advance()
            // private(set), nonisolated(unsafe), …
            if current.isPunctuation("("), !current.startsLine, peek(1).kind == .identifier, peek(2).isPunctuation(")") {
                advance(3)
            }
        }
        return modifiers
    }

    // MARK: Attributes

    mutating func parseAttributes() throws(ModelError) -> [(name: String, line: Int)] {
        var attributes: [(name: String, line: Int)] = []
        while current.isPunctuation("@") {
            let at = current
            advance()
            guard current.kind == .identifier else { throw error(at.line, "expected an attribute name after '@'") }
            var name = current.text
            advance()
            while current.isPunctuation("."), peek(1).kind == .identifier, !current.startsLine {
                name += "." + peek(1).text
                advance(2)
            }
            attributes.append((name, at.line))
            if current.isPunctuation("<"), !current.startsLine { try skipGenericParameters() }
            if current.isPunctuation("("), !current.startsLine { try skipBalanced() }
        }
        return attributes
    }

    // MARK: Types and extensions

    private mutating func parseType(_ kind: TypeDeclSyntax.Kind, attributes: [(name: String, line: Int)], in context: Context, depth: Int) throws(ModelError) {
        let keyword = current
        guard depth < Self.maxNesting else { throw error(keyword.line, "types nested too deeply") }
        advance()
        let name = try expectIdentifier("a type name")
        var unchecked: (reason: String, line: Int)?
        if current.isPunctuation("<") {
            unchecked = ("it is generic, and which of its parameters decode is not read", keyword.line)
            try skipGenericParameters()
        }
        let inherited = current.isPunctuation(":") ? try parseInheritance() : []
        try skipWhereClause()
        if unchecked == nil, let attribute = attributes.first(where: { !Self.typeAttributes.contains($0.name) }) {
            unchecked = ("the attribute @\(attribute.name) may change its members or how it decodes", attribute.line)
        }
        let parent: Int?
        switch context {
        case .file: parent = nil
        case .type(let index): parent = index
        case .extensionBody: parent = nil // set when the extension is merged into its type
        }
        let index = tree.types.count
        tree.types.append(TypeDeclSyntax(kind: kind, name: name, line: keyword.line, parent: parent, inherited: inherited))
        tree.types[index].unchecked = unchecked
        switch context {
        case .file: tree.topLevel.append(index)
        case .type(let outer): tree.types[outer].nested.append(index)
        case .extensionBody(let outer): tree.extensions[outer].nested.append(index)
        }
        guard current.isPunctuation("{") else { throw error(current.line, "expected '{', found '\(current.text)'") }
        if case .other = kind { return try skipBalanced() }
        advance()
        try parseMembers(in: .type(index), depth: depth + 1)
        try expectPunctuation("}")
    }

    private mutating func parseExtension(attributes: [(name: String, line: Int)], depth: Int) throws(ModelError) {
        let keyword = current
        advance()
        var path = [try expectIdentifier("the extended type's name")]
        while current.isPunctuation("."), peek(1).kind == .identifier {
            advance()
            path.append(current.text)
            advance()
        }
        if current.isPunctuation("<") { try skipGenericParameters() }
        let inherited = current.isPunctuation(":") ? try parseInheritance() : []
        try skipWhereClause()
        let index = tree.extensions.count
        tree.extensions.append(ExtensionSyntax(path: path, line: keyword.line, inherited: inherited))
        if let attribute = attributes.first(where: { !Self.typeAttributes.contains($0.name) }) {
            tree.extensions[index].unchecked = ("the attribute @\(attribute.name) on an extension may change its members", attribute.line)
        }
        try expectPunctuation("{")
        try parseMembers(in: .extensionBody(index), depth: depth + 1)
        try expectPunctuation("}")
    }

    /// `where …` before a body: skipped to the `{`.
    private mutating func skipWhereClause() throws(ModelError) {
        guard current.isKeyword("where") else { return }
        while current.kind != .endOfFile, !current.isPunctuation("{") {
            if current.isPunctuation("(") || current.isPunctuation("[") { try skipBalanced() } else { advance() }
        }
    }

    /// After `:`: names separated by `,` or `&`; `@unchecked`, `@retroactive`, `@preconcurrency` skipped;
    /// a generic argument list (`Box<Int>`) or `~Copyable` read past.
    private mutating func parseInheritance() throws(ModelError) -> [[String]] {
        advance()
        var names: [[String]] = []
        repeat {
            if current.isPunctuation(",") || current.isPunctuation("&") { advance() }
            while current.isPunctuation("@"), peek(1).kind == .identifier {
                advance(2)
            }
            if current.isPunctuation("~") { advance() }
            var path = [try expectIdentifier("a protocol or raw type name")]
            while current.isPunctuation("."), peek(1).kind == .identifier {
                advance()
                path.append(current.text)
                advance()
            }
            if current.isPunctuation("<") { try skipGenericParameters() }
            names.append(path)
        } while current.isPunctuation(",") || current.isPunctuation("&")
        return names
    }

    // MARK: Token helpers

    var current: Token { tokens[min(position, tokens.count - 1)] }

    func peek(_ offset: Int) -> Token { tokens[min(position + offset, tokens.count - 1)] }

    mutating func advance(_ count: Int = 1) { position = min(position + count, tokens.count - 1) }

    mutating func expectIdentifier(_ what: String) throws(ModelError) -> String {
        guard current.kind == .identifier else { throw error(at: current, "expected \(what), found '\(current.text)'") }
        if !current.isEscaped, Self.reservedWords.contains(current.text) {
            throw error(at: current, "expected \(what), found the keyword '\(current.text)' (a name spelled so is written `\(current.text)`)")
        }
        defer { advance() }
        return current.text
    }

    mutating func expectPunctuation(_ text: String) throws(ModelError) {
        guard current.isPunctuation(text) else {
            throw error(at: current, "expected '\(text)', found '\(current.kind == .endOfFile ? "end of file" : current.text)'")
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

    /// A syntax error at `token`: its line and column.
    func error(at token: Token, _ message: String) -> ModelError {
        ModelError(file: file, line: token.line, column: token.column > 0 ? token.column : nil, message: message)
    }
}

extension PropertySyntax.Initializer {
    var isPresent: Bool {
        if case .none = self { return false }
        return true
    }
}
