/// Declarations as written in the model file, before type names are resolved.
struct DeclarationTree {
    var types: [TypeDeclSyntax] = []
    var extensions: [ExtensionSyntax] = []
    /// Indices into `types` of the file-scope declarations.
    var topLevel: [Int] = []
}

/// A `struct` or `enum` declaration with the members that matter for decoding.
struct TypeDeclSyntax {
    enum Kind { case structure, enumeration }

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

    var hasInitializer: Bool {
        if case .none = initializer { return false }
        return true
    }

    /// `let x = …` / `let x: T = …`: synthesized `init(from:)` leaves it alone (the compiler warns).
    var isDecodable: Bool { !(isLet && hasInitializer) }
}

/// One enum case and its raw value, if written.
struct CaseSyntax {
    enum RawValue {
        case string(String)
        case integer(IntegerValue)
    }

    let name: String
    let line: Int
    let rawValue: RawValue?
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
}
