import APNsCore
import Foundation

/// `FORMAT.format([args])`, CEL's string formatting: each verb in FORMAT takes the next value of the list.
/// The verbs: `%s` any value as `string()` writes it, `%d` an int, `%f` and `%e` a double or an int (six
/// decimals, or as many as a precision says: `%.2f`), `%x` `%X` `%o` `%b` an int in base 16, 16, 8 or 2, and
/// `%%` a percent sign. A constant FORMAT is read when the expression is compiled: an unknown verb, a count
/// of values that differs, or a value of a type its verb does not take is refused there.
enum ExprFormat {
    enum Piece: Equatable, Sendable {
        case text(String)
        case verb(Character, precision: Int?)
    }

    static let verbs: [Character] = ["s", "d", "f", "e", "x", "X", "o", "b"]
    static let verbList = "%s, %d, %f, %e (with a precision: %.2f, %.3e), %x, %X, %o, %b and %%"
    static let maxPrecision = 17

    /// The pieces of `format`, or what is wrong with it.
    static func pieces(_ format: String) -> Result<[Piece], FormatMistake> {
        var out: [Piece] = []
        var text = ""
        var rest = Substring(format)
        while let c = rest.popFirst() {
            guard c == "%" else { text.append(c); continue }
            if rest.first == "%" { rest.removeFirst(); text.append("%"); continue }
            var precision: Int?
            if rest.first == "." {
                rest.removeFirst()
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                rest = rest.dropFirst(digits.count)
                guard let p = Int(digits), p <= maxPrecision else {
                    return .failure(FormatMistake("'%.\(digits)' needs a precision of 0 to \(maxPrecision) digits"))
                }
                precision = p
            }
            guard let verb = rest.popFirst() else { return .failure(FormatMistake("ends in '%' with no verb: write '%%' for a percent sign")) }
            guard verbs.contains(verb), precision == nil || verb == "f" || verb == "e" else {
                return .failure(FormatMistake("'%\(precision.map { ".\($0)" } ?? "")\(verb)' is not a format verb (verbs: \(verbList))"))
            }
            if !text.isEmpty { out.append(.text(text)); text = "" }
            out.append(.verb(verb, precision: precision))
        }
        if !text.isEmpty { out.append(.text(text)) }
        return .success(out)
    }

    struct FormatMistake: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Whether `verb` takes a value of `type` (`dyn`: known only at run time).
    static func takes(_ verb: Character, _ type: ExprType) -> Bool {
        switch verb {
        case "s": return true
        case "f", "e": return type.isNumber || type == .dyn
        default: return type == .int || type == .dyn
        }
    }

    /// What `verb` takes, for messages.
    static func wants(_ verb: Character) -> String {
        switch verb {
        case "s": return "any value"
        case "f", "e": return "a double or an int"
        default: return "an int"
        }
    }

    /// The text of `pieces` with `args`, one a verb.
    static func render(_ pieces: [Piece], _ args: [ExprValue], column: Int) throws -> String {
        var out = ""
        var next = 0
        for piece in pieces {
            switch piece {
            case let .text(t): out += t
            case let .verb(verb, precision):
                guard next < args.count else {
                    throw ExprFault(column: column, message: "format() has more verbs than the \(args.count) values it was given")
                }
                out += try text(args[next], verb, precision, column: column)
                next += 1
            }
        }
        guard next == args.count else { throw ExprFault(column: column, message: "format() has \(next) verbs for \(args.count) values") }
        return out
    }

    private static func text(_ v: ExprValue, _ verb: Character, _ precision: Int?, column: Int) throws -> String {
        switch (verb, v) {
        case ("s", _): return string(v)
        case let ("d", .int(n)): return String(n)
        case let ("f", .int(n)), let ("e", .int(n)): return number(Double(n), verb, precision)
        case let ("f", .double(d)), let ("e", .double(d)): return number(d, verb, precision)
        case let ("x", .int(n)): return String(n, radix: 16)
        case let ("X", .int(n)): return String(n, radix: 16, uppercase: true)
        case let ("o", .int(n)): return String(n, radix: 8)
        case let ("b", .int(n)): return String(n, radix: 2)
        default: throw ExprFault(column: column, message: "format() '%\(verb)' takes \(wants(verb)), found \(v == .null ? "null" : v.type.description)")
        }
    }

    private static func number(_ d: Double, _ verb: Character, _ precision: Int?) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        return String(format: "%.\(precision ?? 6)\(verb)", d)
    }

    /// A value as `%s` writes it: as `string()` does, and a list as `[a, b]`.
    static func string(_ v: ExprValue) -> String {
        switch v {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .int(n): return String(n)
        case let .double(d): return String(d)
        case let .string(s): return s
        case let .list(items): return "[" + items.map(string).joined(separator: ", ") + "]"
        case let .timestamp(ms): return Timestamp.iso8601(millis: ms)
        case let .duration(ms): return ExprDuration.text(ms)
        }
    }
}

extension ExprCompiler {
    private static let formatUsage = "format() is called on a format string with a list of values, as in '%.2f'.format([total / 100.0])"

    /// `FORMAT.format([args])`: a list literal's values each keep their own type (`['%s: %d'.format([name, n])`).
    mutating func format(_ args: [ExprSyntax], column: Int) throws -> ExprNode {
        guard args.count == 2 else { throw ExprError(column: column, message: Self.formatUsage) }
        let format = try compile(args[0])
        guard format.type == .string || format.type == .dyn else {
            throw ExprError(column: column, message: "\(Self.formatUsage), found \(format.type) (\(format.shown))")
        }
        var items: [ExprNode]?
        var list: ExprNode?
        if case let .list(syntax, _) = args[1] {
            items = try syntax.map { try compile($0) }
        } else {
            let l = try compile(args[1])
            guard l.type == .dyn || l.type.element != nil else { throw ExprError(column: column, message: "\(Self.formatUsage), found \(l.type)") }
            list = l
        }
        let values = try Self.formatValues(items, list, column: column)
        guard case let .string(text)? = format.constant else {
            let f = format.eval
            return ExprNode(type: .string, nullable: false, eval: { input in
                guard case let .string(text) = try f(input) else { throw ExprFault(column: column, message: "format() found its format null") }
                switch ExprFormat.pieces(text) {
                case let .success(pieces): return .string(try ExprFormat.render(pieces, try values(input), column: column))
                case let .failure(m): throw ExprFault(column: column, message: "format() \(m.message)")
                }
            }, shown: "format(…)", constant: nil)
        }
        let pieces: [ExprFormat.Piece]
        switch ExprFormat.pieces(text) {
        case let .success(p): pieces = p
        case let .failure(m): throw ExprError(column: args[0].column, message: "format() \(m.message)")
        }
        try Self.checkFormat(pieces, items, list, column: column)
        return ExprNode(type: .string, nullable: false, eval: { input in
            .string(try ExprFormat.render(pieces, try values(input), column: column))
        }, shown: "format(…)", constant: nil)
    }

    /// The evaluation of the values: a literal's items one by one, or the list.
    private static func formatValues(_ items: [ExprNode]?, _ list: ExprNode?, column: Int) throws -> @Sendable (any ExprInput) throws -> [ExprValue] {
        if let items {
            let evals = items.map(\.eval)
            return { input in try evals.map { try $0(input) } }
        }
        guard let l = list?.eval else { throw ExprError(column: column, message: formatUsage) }
        return { input in
            guard case let .list(values) = try l(input) else { throw ExprFault(column: column, message: "format() found its values null") }
            return values
        }
    }

    /// A constant format's verbs against the values' number and types.
    private static func checkFormat(_ pieces: [ExprFormat.Piece], _ items: [ExprNode]?, _ list: ExprNode?, column: Int) throws {
        var verbs: [Character] = []
        for case let .verb(v, _) in pieces { verbs.append(v) }
        if let items, items.count != verbs.count {
            throw ExprError(column: column, message: "format() has \(verbs.count) verbs for \(items.count) values")
        }
        for (i, verb) in verbs.enumerated() {
            let type = items?[i].type ?? list?.type.element ?? .dyn
            guard ExprFormat.takes(verb, type) else {
                let what = items.map { " (\($0[i].shown))" } ?? ""
                throw ExprError(column: column, message: "format() '%\(verb)' takes \(ExprFormat.wants(verb)), found \(type)\(what)")
            }
        }
    }
}
