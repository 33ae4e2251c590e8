import APNsCore

/// A call of a function of ``ExprFunctions/table``, called as `f(x)` or, as in CEL, `x.f()`: its overload
/// picked from the arguments' static types when it is compiled.
extension ExprCompiler {
    func call(_ name: String, _ args: [ExprNode], column: Int) throws -> ExprNode {
        guard let function = ExprFunctions.byName[name], case let .overloads(overloads) = function.form else {
            throw ExprError(column: column, message: "'\(name)' is not a function (functions: \(ExprFunctions.names))")
        }
        let types = args.map(\.type)
        let fits = overloads.filter { $0.accepts(types) }
        guard let first = fits.first else {
            throw ExprError(column: column, message: "\(name)() takes \(function.takes), "
                + "found \(args.isEmpty ? "nothing" : types.map(\.description).joined(separator: " and "))")
        }
        let type = fits.allSatisfy { $0.result == first.result } ? first.result : .dyn
        let run = fits.count == 1 ? first.run : Self.dispatch(fits)
        let a = args[0].eval, b = args.count > 1 ? args[1].eval : nil, shown = args.map(\.shown)
        // One or two arguments, passed as values: nothing is allocated per call.
        return ExprNode(type: type, nullable: false, eval: { input in
            let x = try a(input)
            if x == .null { throw ExprFault(column: column, message: "\(name)() found \(shown[0]) null") }
            let y = try b?(input) ?? .null
            if b != nil, y == .null { throw ExprFault(column: column, message: "\(name)() found \(shown[1]) null") }
            do { return try run(x, y) } catch let failure as ExprCallFailure {
                throw ExprFault(column: column, message: "\(name)() \(failure.why)")
            }
        }, shown: "\(name)(…)", constant: nil)
    }

    /// The overload of `fits` that takes the values, picked per evaluation: an argument's type is `dyn`.
    private static func dispatch(_ fits: [ExprOverload]) -> @Sendable (ExprValue, ExprValue) throws -> ExprValue {
        { x, y in
            guard let o = fits.first(where: { $0.accepts(x, y) }) else {
                throw fits[0].arguments.count == 1 ? ExprCallFailure.takes(x) : ExprCallFailure.takes(x, y)
            }
            return try o.run(x, y)
        }
    }
}

/// The conversions' overloads: `int`, `double`, `string`, `timestamp` and `duration`.
enum ExprConversions {
    static let ints = [
        ExprOverload([.int], .int) { a, _ in a },
        ExprOverload([.double], .int) { a, _ in
            guard case let .double(d) = a else { throw ExprCallFailure.takes(a) }
            guard d.isFinite, d > -9.223372036854775808e18, d < 9.223372036854775807e18 else {
                throw ExprCallFailure(why: "found \(d), out of an int's range")
            }
            return .int(Int(d))
        },
        ExprOverload([.string], .int) { a, _ in
            let s = try a.text()
            guard let n = Int(s) else { throw ExprCallFailure(why: "cannot read '\(s)' as an int") }
            return .int(n)
        },
        ExprOverload([.timestamp], .int) { a, _ in
            guard case let .timestamp(ms) = a else { throw ExprCallFailure.takes(a) }
            return .int(Int(ms.floorDiv(1000)))
        },
    ]

    static let doubles = [
        ExprOverload([.int], .double) { a, _ in
            guard case let .int(n) = a else { throw ExprCallFailure.takes(a) }
            return .double(Double(n))
        },
        ExprOverload([.double], .double) { a, _ in a },
        ExprOverload([.string], .double) { a, _ in
            let s = try a.text()
            guard let d = Double(s) else { throw ExprCallFailure(why: "cannot read '\(s)' as a double") }
            return .double(d)
        },
    ]

    /// `string()` of each type it takes, as ``ExprFormat/string(_:)`` writes it.
    static let strings = [ExprType.int, .double, .string, .bool, .timestamp, .duration].map { t in
        ExprOverload([t], .string) { a, _ in .string(ExprFormat.string(a)) }
    }

    static let timestamps = [
        ExprOverload([.string], .timestamp) { a, _ in
            let s = try a.text()
            guard let ms = Timestamp.parse(s) else { throw ExprCallFailure(why: "cannot read '\(s)' as an RFC 3339 time") }
            return .timestamp(ms)
        },
        ExprOverload([.int], .timestamp) { a, _ in
            guard case let .int(s) = a else { throw ExprCallFailure.takes(a) }
            let (ms, overflow) = Int64(s).multipliedReportingOverflow(by: 1000)
            guard !overflow else { throw ExprCallFailure(why: "found \(s) seconds, out of a timestamp's range") }
            return .timestamp(ms)
        },
        ExprOverload([.timestamp], .timestamp) { a, _ in a },
    ]

    static let durations = [
        ExprOverload([.string], .duration) { a, _ in
            let s = try a.text()
            guard let ms = ExprDuration.millis(s) else { throw ExprCallFailure(why: "cannot read '\(s)' as a duration (like '900s', '15m', '1h30m')") }
            return .duration(ms)
        },
        ExprOverload([.duration], .duration) { a, _ in a },
    ]
}

/// Durations as CEL writes them: a sequence of decimal numbers with units h, m, s, ms (`1h30m`, `900s`, `1.5s`).
enum ExprDuration {
    static func millis(_ text: String) -> Int64? {
        var rest = Substring(text)
        var negative = false
        if rest.first == "-" { negative = true; rest = rest.dropFirst() }
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let n = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard let scale = ["h": 3_600_000.0, "m": 60000.0, "s": 1000.0, "ms": 1.0][String(unit)] else { return nil }
            total += n * scale
        }
        guard total < 3.2e17 else { return nil }
        return Int64((negative ? -total : total).rounded())
    }

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
