/// The language's functions, each declared once here: its name, how it is written, what it gives and takes,
/// and its overloads (the types of its arguments, its result, its work). The checker picks an overload from the
/// arguments' static types and the compiled call runs that overload alone; only an argument of type `dyn` picks
/// one from its value, per evaluation. docs/recipes.md's function list is ``markdown`` (a test compares them).
enum ExprFunctions {
    static let table: [ExprFunction] = [
        ExprFunction("has", written: "`has(x.f)`", gives: "whether the field holds a value (CEL's presence test)",
                     takes: "one field selection, like has(order.status) or has(order.token)", form: .presence),
        ExprFunction("size", written: "`size(x)`", gives: "the length of a string (in Unicode scalars) or of a list",
                     takes: "a string or a list", form: .overloads(sizes)),
        ExprFunction("int", written: "`int(x)`", gives: "an int; a double truncated toward zero, a timestamp's seconds since 1970",
                     takes: "an int, a double, a string or a timestamp", form: .overloads(ExprConversions.ints)),
        ExprFunction("double", written: "`double(x)`", gives: "a double", takes: "an int, a double or a string", form: .overloads(ExprConversions.doubles)),
        ExprFunction("string", written: "`string(x)`", gives: "the text of a value (a timestamp in RFC 3339, a duration as `900s`)",
                     takes: "an int, a double, a string, a bool, a timestamp or a duration", form: .overloads(ExprConversions.strings)),
        ExprFunction("timestamp", written: "`timestamp('2025-05-01T10:00:00Z')`", gives: "a timestamp, from RFC 3339 text or int seconds since 1970",
                     takes: "an RFC 3339 string or int seconds since 1970", form: .overloads(ExprConversions.timestamps)),
        ExprFunction("duration", written: "`duration('15m')`", gives: "a duration, from text like `900s`, `15m` or `1h30m`",
                     takes: "a string like '900s', '15m' or '1h30m'", form: .overloads(ExprConversions.durations)),
        text("startsWith", "whether `s` begins with `p`") { s, p in s.hasPrefix(p) },
        text("endsWith", "whether `s` ends with `p`") { s, p in s.hasSuffix(p) },
        text("contains", "whether `p` occurs in `s`") { s, p in p.isEmpty || s.contains(p) },
        ExprFunction("join", written: "`l.join(s)`", gives: "the strings of `l`, with `s` between each two (`''` for an empty list)",
                     takes: "a list of strings, called on it with a string (names.join(', '))", form: .overloads(joins)),
        ExprFunction("format", written: "`'%.2f'.format([x])`",
                     gives: "the text with each verb replaced by the next value: \(ExprFormat.verbList) ([Formats](#formats))",
                     takes: "a format string and a list of values", form: .format),
        macro("filter", "`l.filter(x, p)`", "the items `x` of `l` for which `p` holds"),
        macro("map", "`l.map(x, e)`", "the list of `e` for each item `x` of `l`"),
        macro("exists", "`l.exists(x, p)`", "whether `p` holds for some item `x` of `l`"),
        macro("all", "`l.all(x, p)`", "whether `p` holds for every item `x` of `l` (true for an empty list)"),
    ]

    static let byName: [String: ExprFunction] = Dictionary(uniqueKeysWithValues: table.map { ($0.name, $0) })

    /// The list of functions a message names.
    static let names = table.map(\.name).joined(separator: ", ")

    /// docs/recipes.md's function list: one row per function.
    static func markdown() -> String {
        (["| function | gives |", "| --- | --- |"] + table.map { "| \($0.written) | \($0.gives) |" }).joined(separator: "\n")
    }

    private static let sizes = [
        ExprOverload([.string], .int) { a, _ in .int(try a.text().unicodeScalars.count) },
        ExprOverload([.list(.dyn)], .int) { a, _ in
            guard case let .list(l) = a else { throw ExprCallFailure.takes(a) }
            return .int(l.count)
        },
    ]

    private static let joins = [
        ExprOverload([.list(.string), .string], .string) { a, b in
            guard case let .list(items) = a else { throw ExprCallFailure.takes(a, b) }
            return .string(try items.map { try $0.text() }.joined(separator: try b.text()))
        },
    ]

    private static func text(_ name: String, _ gives: String, _ test: @escaping @Sendable (String, String) -> Bool) -> ExprFunction {
        ExprFunction(name, written: "`s.\(name)(p)`", gives: gives, takes: "a string, called on a string (s.\(name)('x'))",
                     form: .overloads([ExprOverload([.string, .string], .bool) { a, b in .bool(test(try a.text(), try b.text())) }]))
    }

    private static func macro(_ name: String, _ written: String, _ gives: String) -> ExprFunction {
        ExprFunction(name, written: written, gives: gives, takes: "a name for each item and \(name == "map" ? "a value" : "a condition")", form: .macro)
    }
}

/// One function of the language.
struct ExprFunction: Sendable {
    /// How the compiler reads a call: by overloads, or from its syntax (`has`, `format`, the list macros).
    enum Form: Sendable {
        case overloads([ExprOverload])
        case presence, format, macro
    }

    var name: String
    /// How the docs write a call.
    var written: String
    /// What it gives, for the docs.
    var gives: String
    /// What it takes, for the message when it is given something else.
    var takes: String
    var form: Form

    init(_ name: String, written: String, gives: String, takes: String, form: Form) {
        self.name = name
        self.written = written
        self.gives = gives
        self.takes = takes
        self.form = form
    }
}

/// One overload: the types of its arguments (`list(dyn)`: any list), its result, and its work on two values
/// (the second is null for a function of one).
struct ExprOverload: Sendable {
    var arguments: [ExprType]
    var result: ExprType
    var run: @Sendable (ExprValue, ExprValue) throws -> ExprValue

    init(_ arguments: [ExprType], _ result: ExprType, _ run: @escaping @Sendable (ExprValue, ExprValue) throws -> ExprValue) {
        self.arguments = arguments
        self.result = result
        self.run = run
    }

    /// Whether it takes arguments of these static types (`dyn` may be anything).
    func accepts(_ types: [ExprType]) -> Bool {
        types.count == arguments.count && zip(arguments, types).allSatisfy { want, have in
            have == .dyn || want == have || (want == .list(.dyn) && have.element != nil)
        }
    }

    /// Whether it takes these values (a function of one is given `.null` second).
    func accepts(_ a: ExprValue, _ b: ExprValue) -> Bool {
        accepts(arguments.count == 1 ? [a.type] : [a.type, b.type])
    }
}

/// Why a function's work failed; the call adds the function's name and the column.
struct ExprCallFailure: Error {
    var why: String

    static func takes(_ values: ExprValue...) -> ExprCallFailure {
        ExprCallFailure(why: "does not take \(values.map(\.type.description).joined(separator: " and "))")
    }
}

extension ExprValue {
    /// The text of a string value, for a function's work.
    func text() throws -> String {
        guard case let .string(s) = self else { throw ExprCallFailure.takes(self) }
        return s
    }
}
