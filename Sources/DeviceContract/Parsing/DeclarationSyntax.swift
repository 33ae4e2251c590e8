/// Declarations as written in the model file, before type names are resolved.
struct DeclarationTree {
    var types: [TypeDeclSyntax] = []
    var extensions: [ExtensionSyntax] = []
    /// Indices into `types` of the file-scope declarations.
    var topLevel: [Int] = []
}

/// A `struct`, `enum` or `typealias` declaration with the members that matter for decoding; or another
/// kind of type (a class, an actor, a protocol), recorded so that its name is known.
struct TypeDeclSyntax {
    enum Kind {
        case structure, enumeration
        /// `typealias Name = Type`.
        case alias(TypeSyntax)
        /// A class, actor or protocol: its keyword.
        case other(String)
    }

    let kind: Kind
    let name: String
    let line: Int
    /// The enclosing type, or nil at file scope.
    var parent: Int?
    /// The inheritance clause, each entry a dotted path (`["ActivityKit", "ActivityAttributes"]`),
    /// with conformances added by extensions appended.
    var inherited: [[String]]
    /// Stored instance properties, in declaration order.
    var properties: [PropertySyntax] = []
    /// Enum cases, in declaration order.
    var cases: [CaseSyntax] = []
    /// Indices into `types` of the nested declarations.
    var nested: [Int] = []
    /// Why its decoding cannot be known from its declaration (a custom `init(from:)`, a generic type, a macro
    /// that may add members), with the line that says so; nil when it can.
    var unchecked: (reason: String, line: Int)?

    var isStruct: Bool {
        if case .structure = kind { return true }
        return false
    }

    var isEnum: Bool {
        if case .enumeration = kind { return true }
        return false
    }

    func conforms(to protocolName: String) -> Bool {
        inherited.contains { $0.last == protocolName && ($0.count == 1 || ["Swift", "Foundation", "ActivityKit"].contains($0[0])) }
    }
}

/// An `extension`: its conformances and nested types are merged into the extended type.
struct ExtensionSyntax {
    let path: [String]
    let line: Int
    var inherited: [[String]]
    var nested: [Int] = []
    /// As ``TypeDeclSyntax/unchecked``, for what the extension adds (a custom `init(from:)`).
    var unchecked: (reason: String, line: Int)?
}

/// A stored instance property.
struct PropertySyntax {
    enum Initializer {
        case none
        /// A single literal, from which Swift infers the type when none is written.
        case literal(LiteralKind)
        case expression
    }

    enum LiteralKind { case integer, float, string, boolean }

    let name: String
    let line: Int
    let isLet: Bool
    let type: TypeSyntax?
    let initializer: Initializer
    /// An attribute other than `@available` (a property wrapper or macro), which decides how it decodes.
    let wrapper: String?

    var hasInitializer: Bool {
        if case .none = initializer { return false }
        return true
    }

    /// `let x = …` / `let x: T = …`: synthesized `init(from:)` leaves it alone (the compiler warns).
    var isDecodable: Bool { !(isLet && hasInitializer) }
}

/// One enum case: its raw value, if written, and its associated values, if any.
struct CaseSyntax {
    enum RawValue {
        case string(String)
        case integer(IntegerValue)
        /// A floating-point literal (a `Double` raw type), which is not matched.
        case floating
    }

    /// One associated value: its label (nil when unlabeled) and type.
    struct Associated {
        let label: String?
        let type: TypeSyntax
    }

    let name: String
    let line: Int
    let rawValue: RawValue?
    /// Nil for a case without parentheses.
    let associated: [Associated]?
}

/// A type as written: a (possibly qualified) name, or sugar / generic spelling of the standard
/// containers.
indirect enum TypeSyntax {
    case named([String], line: Int)
    /// `T?` and `T!` are sugared; `Optional<T>` is not (a `var` of that spelling gets no implicit
    /// `nil` default).
    case optional(TypeSyntax, sugared: Bool)
    case array(TypeSyntax)
    case dictionary(TypeSyntax, TypeSyntax)
    case set(TypeSyntax)
    /// `Range<T>` or `ClosedRange<T>`.
    case range(TypeSyntax, closed: Bool)
    /// Any other generic type, e.g. `Box<Int>` or `PartialRangeFrom<Int>`.
    case generic([String], line: Int)
    /// A type this reader does not follow (a tuple, a function, `some`/`any`), as written.
    case unreadable(String, line: Int)
}
