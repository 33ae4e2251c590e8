/// The arithmetic of values, as CEL defines it: ints overflow into a failure, never wrap; an int division or
/// remainder by zero fails; doubles follow IEEE 754; `+` joins strings and lists; timestamps and durations
/// add and subtract. One departure: a timestamp plus or minus an int moves it by that many seconds
/// (`time + 900`), as `time + duration('900s')` does.
enum ExprArithmetic {
    static func resultType(_ op: String, _ a: ExprType, _ b: ExprType) -> ExprType? {
        switch (op, a, b) {
        case (_, .dyn, _), (_, _, .dyn): return .dyn
        case ("+", .int, .int), ("-", .int, .int), ("*", .int, .int), ("/", .int, .int), ("%", .int, .int): return .int
        case ("+", .double, .double), ("-", .double, .double), ("*", .double, .double), ("/", .double, .double): return .double
        case ("+", .string, .string): return .string
        case ("+", .list, .list) where ExprType.unified(a, b) != nil: return ExprType.unified(a, b)
        case ("+", .timestamp, .duration), ("+", .duration, .timestamp), ("-", .timestamp, .duration): return .timestamp
        case ("+", .timestamp, .int), ("-", .timestamp, .int): return .timestamp
        case ("-", .timestamp, .timestamp), ("+", .duration, .duration), ("-", .duration, .duration): return .duration
        default: return nil
        }
    }

    /// What an operator takes, for messages.
    static func takes(_ op: String) -> String {
        switch op {
        case "+":
            return "two ints, two doubles, two strings, two lists, or a timestamp and a duration or int seconds (convert with int(), double() or string())"
        case "-": return "two ints, two doubles, two timestamps, or a timestamp and a duration or int seconds (convert with int() or double())"
        case "%": return "two ints"
        default: return "two ints or two doubles (convert with int() or double())"
        }
    }

    /// The work of `op` on values of the static types `a` and `b`, chosen once: by the operator and the types
    /// when both are known, by the values (``apply(_:_:_:column:)``) per evaluation when one is `dyn`.
    static func bound(_ op: String, _ a: ExprType, _ b: ExprType, column: Int) -> Binary {
        switch (a, b) {
        case (.int, .int):
            let f = ints(op, column: column)
            return { x, y in
                guard case let .int(m) = x, case let .int(n) = y else { return try apply(op, x, y, column: column) }
                return .int(try f(m, n))
            }
        case (.double, .double):
            let f: @Sendable (Double, Double) -> Double
            switch op {
            case "+": f = { $0 + $1 }
            case "-": f = { $0 - $1 }
            case "*": f = { $0 * $1 }
            default: f = { $0 / $1 }
            }
            return { x, y in
                guard case let .double(m) = x, case let .double(n) = y else { return try apply(op, x, y, column: column) }
                return .double(f(m, n))
            }
        case (.string, .string):
            return { x, y in
                guard case let .string(m) = x, case let .string(n) = y else { return try apply(op, x, y, column: column) }
                return .string(m + n)
            }
        case (.list, .list):
            return { x, y in
                guard case let .list(m) = x, case let .list(n) = y else { return try apply(op, x, y, column: column) }
                return .list(m + n)
            }
        case (.dyn, _), (_, .dyn): return { x, y in try apply(op, x, y, column: column) }
        default:
            let plus = op == "+"
            return { x, y in try times(op, plus, x, y, column: column) }
        }
    }

    /// A binary operator's work on two values that are not null.
    typealias Binary = @Sendable (ExprValue, ExprValue) throws -> ExprValue

    /// `op` on two values, by their types and the operator's name: the work of an operand of type `dyn`.
    static func apply(_ op: String, _ a: ExprValue, _ b: ExprValue, column: Int) throws -> ExprValue {
        switch (a, b) {
        case let (.int(x), .int(y)): return .int(try ints(op, column: column)(x, y))
        case let (.double(x), .double(y)):
            switch op {
            case "+": return .double(x + y)
            case "-": return .double(x - y)
            case "*": return .double(x * y)
            default: return .double(x / y)
            }
        case let (.string(x), .string(y)): return .string(x + y)
        case let (.list(x), .list(y)): return .list(x + y)
        default: return try times(op, op == "+", a, b, column: column)
        }
    }

    /// `+` (`plus`) or `-` on timestamps, durations and int seconds; `op` names the operator in messages.
    private static func times(_ op: String, _ plus: Bool, _ a: ExprValue, _ b: ExprValue, column: Int) throws -> ExprValue {
        switch (a, b) {
        case let (.timestamp(t), .duration(d)), let (.duration(d), .timestamp(t)):
            return .timestamp(try millis(plus ? t.addingReportingOverflow(d) : t.subtractingReportingOverflow(d), column))
        case let (.timestamp(t), .int(s)):
            let (ms, o) = Int64(s).multipliedReportingOverflow(by: 1000)
            guard !o else { throw ExprFault(column: column, message: "timestamp overflow in '\(op)'") }
            return .timestamp(try millis(plus ? t.addingReportingOverflow(ms) : t.subtractingReportingOverflow(ms), column))
        case let (.timestamp(x), .timestamp(y)): return .duration(try millis(x.subtractingReportingOverflow(y), column))
        case let (.duration(x), .duration(y)):
            return .duration(try millis(plus ? x.addingReportingOverflow(y) : x.subtractingReportingOverflow(y), column))
        default:
            throw ExprFault(column: column, message: "'\(op)' does not apply to \(a.type) and \(b.type)")
        }
    }

    private static func millis(_ r: (partialValue: Int64, overflow: Bool), _ column: Int) throws -> Int64 {
        guard !r.overflow else { throw ExprFault(column: column, message: "time overflow") }
        return r.partialValue
    }

    /// `op` on two ints, chosen once: an overflow, or a division or remainder by zero, fails.
    private static func ints(_ op: String, column: Int) -> @Sendable (Int, Int) throws -> Int {
        let f: @Sendable (Int, Int) -> (partialValue: Int, overflow: Bool)
        switch op {
        case "+": f = { $0.addingReportingOverflow($1) }
        case "-": f = { $0.subtractingReportingOverflow($1) }
        case "*": f = { $0.multipliedReportingOverflow(by: $1) }
        case "/": f = { $0.dividedReportingOverflow(by: $1) }
        default: f = { $0.remainderReportingOverflow(dividingBy: $1) }
        }
        let zero = op == "/" ? "division by zero" : (op == "%" ? "modulus by zero" : nil)
        return { x, y in
            if y == 0, let zero { throw ExprFault(column: column, message: zero) }
            let r = f(x, y)
            guard !r.overflow else { throw ExprFault(column: column, message: "integer overflow in '\(op)'") }
            return r.partialValue
        }
    }

    /// CEL's equality: ints and doubles compare as numbers; values of other different types are not equal;
    /// null equals only null.
    static func equal(_ a: ExprValue, _ b: ExprValue) -> Bool {
        switch (a, b) {
        case let (.int(x), .double(y)), let (.double(y), .int(x)): return Double(x) == y
        case let (.list(x), .list(y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        default: return a == b
        }
    }

    /// -1, 0 or 1; nil when the two cannot be ordered (a null, or different types).
    static func order(_ a: ExprValue, _ b: ExprValue) -> Int? {
        func cmp<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }
        switch (a, b) {
        case let (.int(x), .int(y)): return cmp(x, y)
        case let (.double(x), .double(y)): return cmp(x, y)
        case let (.int(x), .double(y)): return cmp(Double(x), y)
        case let (.double(x), .int(y)): return cmp(x, Double(y))
        case let (.string(x), .string(y)): return cmp(x, y)
        case let (.bool(x), .bool(y)): return cmp(x ? 1 : 0, y ? 1 : 0)
        case let (.timestamp(x), .timestamp(y)), let (.duration(x), .duration(y)): return cmp(x, y)
        default: return nil
        }
    }
}
