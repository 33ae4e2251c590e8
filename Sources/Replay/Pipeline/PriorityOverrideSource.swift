import APNsCore

/// Lays a ``PriorityOverride`` over the pushes of the kinds in its scope, whatever priority their events
/// chose, and counts what it reached: the pushes in scope, and of those the ones whose priority it changed.
public final class PriorityOverrideSource: PushSource {
    private let inner: PushSource
    private let priority: Priority
    /// Whether each push kind is in the scope.
    private let inScope: [Bool]
    /// Pushes in the scope, and those of them sent at another priority than their events chose.
    public private(set) var reached = 0
    public private(set) var changed = 0

    /// - Parameter kinds: the push type of each push kind (``OutgoingPush/kind``).
    public init(_ inner: PushSource, override: PriorityOverride, kinds: [PushType]) {
        self.inner = inner
        priority = override.priority
        inScope = kinds.map(override.reaches)
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        let result = inner.next(into: &push)
        if result == .push, inScope.isEmpty || inScope[min(Int(push.kind), inScope.count - 1)] {
            reached += 1
            if push.priority != priority {
                changed += 1
                push.priority = priority
            }
        }
        return result
    }

    public func abandon() { inner.abandon() }
}
