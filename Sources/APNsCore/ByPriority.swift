/// One value for each APNs priority (1, 5, 10), kept in place: `table[.immediate].record(…)` changes the
/// stored value without copying it.
public struct ByPriority<Value> {
    private var values: [Value]

    /// Each priority starts from `initial`.
    public init(_ initial: Value) {
        values = Array(repeating: initial, count: Priority.allCases.count)
    }

    @inline(__always)
    private static func index(_ priority: Priority) -> Int {
        switch priority {
        case .powerFirst: 0
        case .powerAware: 1
        case .immediate: 2
        }
    }

    public subscript(priority: Priority) -> Value {
        get { values[Self.index(priority)] }
        _modify { yield &values[Self.index(priority)] }
    }
}

extension ByPriority: Sendable where Value: Sendable {}
extension ByPriority: Equatable where Value: Equatable {}
