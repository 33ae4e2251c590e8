/// Pushes waiting to be sent again (after a backoff, a held token, a provider-token re-sign), ordered
/// by when they are due and, for the same due time, by when they were first taken from the source —
/// so two held pushes for one token go out in their original order.
struct RetryQueue {
    private var heap: [TransferSlot] = []

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    /// The earliest due time, if any.
    var nextDueNanos: UInt64? { heap.first?.dueNanos }

    init() { heap.reserveCapacity(64) }

    mutating func push(_ slot: TransferSlot) {
        heap.append(slot)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.before(heap[i], heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns the earliest slot if it is due at `now`.
    mutating func popDue(now: UInt64) -> TransferSlot? {
        guard let first = heap.first, first.dueNanos <= now else { return nil }
        return popFirst()
    }

    /// Removes and returns every slot, in order.
    mutating func drain() -> [TransferSlot] {
        var out: [TransferSlot] = []
        out.reserveCapacity(heap.count)
        while let s = popFirst() { out.append(s) }
        return out
    }

    private mutating func popFirst() -> TransferSlot? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count && Self.before(heap[l], heap[m]) { m = l }
            if r < heap.count && Self.before(heap[r], heap[m]) { m = r }
            if m == i { break }
            heap.swapAt(i, m)
            i = m
        }
        return top
    }

    @inline(__always)
    private static func before(_ a: TransferSlot, _ b: TransferSlot) -> Bool {
        a.dueNanos != b.dueNanos ? a.dueNanos < b.dueNanos : a.sequence < b.sequence
    }
}
