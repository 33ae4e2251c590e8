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

    static func apply(_ op: String, _ a: ExprValue, _ b: ExprValue, column: Int) throws -> ExprValue {
        switch (a, b) {
        case let (.int(x), .int(y)): return .int(try ints(op, x, y, column: column))
        case let (.double(x), .double(y)):
            switch op {
            case "+": return .double(x + y)
            case "-": return .double(x - y)
            case "*": return .double(x * y)
            default: return .double(x / y)
            }
        case let (.string(x), .string(y)): return .string(x + y)
        case let (.list(x), .list(y)): return .list(x + y)
        case let (.timestamp(t), .duration(d)), let (.duration(d), .timestamp(t)):
            return .timestamp(try millis(op == "+" ? t.addingReportingOverflow(d) : t.subtractingReportingOverflow(d), column))
        case let (.timestamp(t), .int(s)):
            let (ms, o) = Int64(s).multipliedReportingOverflow(by: 1000)
            guard !o else { throw ExprFault(column: column, message: "timestamp overflow in '\(op)'") }
            return .timestamp(try millis(op == "+" ? t.addingReportingOverflow(ms) : t.subtractingReportingOverflow(ms), column))
        case let (.timestamp(x), .timestamp(y)): return .duration(try millis(x.subtractingReportingOverflow(y), column))
        case let (.duration(x), .duration(y)):
            return .duration(try millis(op == "+" ? x.addingReportingOverflow(y) : x.subtractingReportingOverflow(y), column))
        default:
            throw ExprFault(column: column, message: "'\(op)' does not apply to \(a.type) and \(b.type)")
        }
    }

    private static func millis(_ r: (partialValue: Int64, overflow: Bool), _ column: Int) throws -> Int64 {
        guard !r.overflow else { throw ExprFault(column: column, message: "time overflow") }
        return r.partialValue
    }

    private static func ints(_ op: String, _ x: Int, _ y: Int, column: Int) throws -> Int {
        let r: (partialValue: Int, overflow: Bool)
        switch op {
        case "+": r = x.addingReportingOverflow(y)
        case "-": r = x.subtractingReportingOverflow(y)
        case "*": r = x.multipliedReportingOverflow(by: y)
        case "/":
            guard y != 0 else { throw ExprFault(column: column, message: "division by zero") }
            r = x.dividedReportingOverflow(by: y)
        default:
            guard y != 0 else { throw ExprFault(column: column, message: "modulus by zero") }
            r = x.remainderReportingOverflow(dividingBy: y)
        }
        guard !r.overflow else { throw ExprFault(column: column, message: "integer overflow in '\(op)'") }
        return r.partialValue
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
