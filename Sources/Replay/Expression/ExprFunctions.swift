import APNsCore

/// The functions: `size`, the conversions `int`, `double`, `string`, `timestamp` and `duration`, and the
/// string tests `startsWith`, `endsWith` and `contains`. Each is called as `f(x)` or, as in CEL, `x.f()`.
extension ExprCompiler {
    static let functions = ["size", "int", "double", "string", "timestamp", "duration", "startsWith", "endsWith", "contains"]

    /// The types each function takes, and what it returns.
    private static func signature(_ name: String, _ args: [ExprType]) -> ExprType? {
        switch (name, args) {
        case (_, let a) where a.contains(.dyn):
            return ["startsWith", "endsWith", "contains"].contains(name) ? .bool : (name == "size" ? .int : conversionType(name))
        case ("size", [.string]): return .int
        case ("int", [.int]), ("int", [.double]), ("int", [.string]), ("int", [.timestamp]): return .int
        case ("double", [.int]), ("double", [.double]), ("double", [.string]): return .double
        case ("string", [.int]), ("string", [.double]), ("string", [.string]), ("string", [.bool]), ("string", [.timestamp]), ("string", [.duration]):
            return .string
        case ("timestamp", [.string]), ("timestamp", [.int]), ("timestamp", [.timestamp]): return .timestamp
        case ("duration", [.string]), ("duration", [.duration]): return .duration
        case ("startsWith", [.string, .string]), ("endsWith", [.string, .string]), ("contains", [.string, .string]): return .bool
        default:
            if name == "size", args.count == 1, case .list = args[0] { return .int }
            return nil
        }
    }

    private static func conversionType(_ name: String) -> ExprType? {
        ["int": .int, "double": .double, "string": .string, "timestamp": .timestamp, "duration": .duration][name]
    }

    private static func usage(_ name: String) -> String {
        switch name {
        case "size": return "a string or a list"
        case "int": return "an int, a double, a string or a timestamp"
        case "double": return "an int, a double or a string"
        case "string": return "an int, a double, a string, a bool, a timestamp or a duration"
        case "timestamp": return "an RFC 3339 string or int seconds since 1970"
        case "duration": return "a string like '900s', '15m' or '1h30m'"
        default: return "a string, called on a string (s.\(name)('x'))"
        }
    }

    func call(_ name: String, _ args: [ExprNode], column: Int) throws -> ExprNode {
        guard Self.functions.contains(name) else {
            throw ExprError(column: column, message: "'\(name)' is not a function (functions: has, \(Self.functions.joined(separator: ", ")))")
        }
        guard let type = Self.signature(name, args.map(\.type)) else {
            throw ExprError(column: column, message: "\(name)() takes \(Self.usage(name)), "
                + "found \(args.isEmpty ? "nothing" : args.map(\.type.description).joined(separator: " and "))")
        }
        let first = args[0].eval, second = args.count > 1 ? args[1].eval : nil, shown = args.map(\.shown)
        // One or two arguments, passed as values: nothing is allocated per call.
        return ExprNode(type: type, nullable: false, eval: { input in
            let a = try first(input)
            if a == .null { throw ExprFault(column: column, message: "\(name)() found \(shown[0]) null") }
            let b = try second?(input)
            if b == .null { throw ExprFault(column: column, message: "\(name)() found \(shown[1]) null") }
            return try ExprConversions.apply(name, a, b, column: column)
        }, shown: "\(name)(…)", constant: nil)
    }
}

/// The functions' work at run time.
enum ExprConversions {
    static func apply(_ name: String, _ a: ExprValue, _ b: ExprValue?, column: Int) throws -> ExprValue {
        func fail(_ why: String) -> ExprFault { ExprFault(column: column, message: "\(name)() \(why)") }
        switch (name, a) {
        case let ("size", .string(s)): return .int(s.unicodeScalars.count)
        case let ("size", .list(l)): return .int(l.count)
        case ("int", .int), ("double", .double), ("string", .string), ("timestamp", .timestamp), ("duration", .duration): return a
        case let ("int", .double(d)):
            guard d.isFinite, d > -9.223372036854775808e18, d < 9.223372036854775807e18 else { throw fail("found \(d), out of an int's range") }
            return .int(Int(d))
        case let ("int", .string(s)):
            guard let n = Int(s) else { throw fail("cannot read '\(s)' as an int") }
            return .int(n)
        case let ("int", .timestamp(ms)): return .int(Int(ms.floorDiv(1000)))
        case let ("double", .int(n)): return .double(Double(n))
        case let ("double", .string(s)):
            guard let d = Double(s) else { throw fail("cannot read '\(s)' as a double") }
            return .double(d)
        case let ("string", .int(n)): return .string(String(n))
        case let ("string", .double(d)): return .string(String(d))
        case let ("string", .bool(b)): return .string(b ? "true" : "false")
        case let ("string", .timestamp(ms)): return .string(Timestamp.iso8601(millis: ms))
        case let ("string", .duration(ms)): return .string(ExprDuration.text(ms))
        case let ("timestamp", .int(s)): return .timestamp(Int64(s) * 1000)
        case let ("timestamp", .string(s)):
            guard let ms = Timestamp.parse(s) else { throw fail("cannot read '\(s)' as an RFC 3339 time") }
            return .timestamp(ms)
        case let ("duration", .string(s)):
            guard let ms = ExprDuration.millis(s) else { throw fail("cannot read '\(s)' as a duration (like '900s', '15m', '1h30m')") }
            return .duration(ms)
        case let ("startsWith", .string(s)): if case let .string(p)? = b { return .bool(s.hasPrefix(p)) }
        case let ("endsWith", .string(s)): if case let .string(p)? = b { return .bool(s.hasSuffix(p)) }
        case let ("contains", .string(s)): if case let .string(p)? = b { return .bool(p.isEmpty || s.contains(p)) }
        default: break
        }
        throw fail("does not take \(([a] + (b.map { [$0] } ?? [])).map(\.type.description).joined(separator: " and "))")
    }
}

/// Durations as CEL writes them, read in the settings' one grammar (``DurationText``): a sequence of decimal
/// numbers with units h, m, s, ms (`1h30m`, `900s`, `1.5s`).
enum ExprDuration {
    static func millis(_ text: String) -> Int64? { DurationText.parse(text)?.millis }

    /// CEL's form: seconds with a fraction when needed (`900s`, `1.5s`).
    static func text(_ ms: Int64) -> String {
        ms % 1000 == 0 ? "\(ms / 1000)s" : "\(Double(ms) / 1000)s"
    }
}

extension Int64 {
    /// Division rounding toward negative infinity (a time before 1970 still has whole seconds below it).
    func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
