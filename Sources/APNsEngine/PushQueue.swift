import APNsCore
import Foundation

/// A bounded single-producer, single-consumer FIFO of `OutgoingPush` values: the hand-off from the
/// producer thread of a `WorkerPool` to one worker's engine.
///
/// Pushes move by swapping, never by copying: `put` swaps the producer's push with a spent slot of the
/// ring (the producer gets that slot's buffers back, to overwrite with its next push), and `poll` (never
/// waits; what the pool's engines use) or `take` (waits while empty) swaps a filled slot with the
/// engine's push (the ring gets the engine's spent buffers). Body buffers keep their capacity as they go
/// round, so a steady run allocates nothing here.
///
/// One mutex and one condition: only one side can wait at a time (a ring cannot be full and empty at
/// once), and a side signals only when the other is waiting, so a queue that is neither full nor empty
/// costs a lock and an unlock per push, no system call. A producer waiting on a full ring is woken once the
/// consumer has drained it to half (``lowWater``), not at each push taken: otherwise a paced engine, which
/// takes one push per due time, wakes the producer once per push, only for it to put one and wait again.
///
/// Shared by its two threads: every field is read and written under `condition`, except `wakeConsumer`,
/// which is set before either thread starts.
final class PushQueue: @unchecked Sendable {
    /// Pushes the ring holds at most.
    let capacity: Int
    /// A producer waiting on a full ring is woken when at most this many are queued.
    let lowWater: Int
    private let ring: UnsafeMutablePointer<OutgoingPush>
    private let condition = NSCondition()
    /// Pushes taken and put so far; `tail - head` are queued; slot = count % capacity.
    private var head = 0
    private var tail = 0
    /// The producer put its last push.
    private var closed = false
    /// The consumer stopped taking (its engine reached the duration limit or failed): `put` refuses.
    private var abandoned = false
    private var producerWaiting = false
    private var consumerWaiting = false
    /// The consumer polled an empty queue and is waiting elsewhere (in its engine's poll): the next
    /// `put` or `close` calls `wakeConsumer`.
    private var consumerIdle = false
    /// How to end the consumer's wait elsewhere (its engine's `wake()`), for `poll`.
    var wakeConsumer: (() -> Void)?

    private var producerWaitCount = 0
    private var producerWakeCount = 0
    /// Whether the last `put` found the queue full and waited: read and written by the producer only.
    private(set) var lastPutWaited = false
    private var consumerWaitCount = 0
    private var puts = 0

    /// Times the producer found the ring full and waited.
    var producerWaits: Int { locked { producerWaitCount } }
    /// Times the consumer found the ring empty (and not closed) and waited (`take`) or went idle (`poll`).
    var consumerWaits: Int { locked { consumerWaitCount } }
    /// Pushes put in all.
    var putCount: Int { locked { puts } }
    /// Times the consumer woke a producer waiting on a full ring.
    var producerWakes: Int { locked { producerWakeCount } }

    /// Under the lock: the consumer drained a full ring to ``lowWater`` (or abandoned it).
    private func wakeProducer() {
        producerWakeCount += 1
        condition.signal()
    }

    /// - Parameters:
    ///   - capacity: pushes held at most (at least 1).
    ///   - bodyCapacity: body bytes reserved in each slot up front (4 096, the largest payload most push
    ///     types may have, means bodies never grow).
    init(capacity: Int, bodyCapacity: Int = 4096) {
        precondition(capacity >= 1, "a queue holds at least one push")
        self.capacity = capacity
        lowWater = capacity / 2
        ring = .allocate(capacity: capacity)
        ring.initialize(repeating: OutgoingPush(bodyCapacity: 0), count: capacity)
        // One buffer per slot, not `capacity` references to one shared buffer.
        for i in 0..<capacity { ring[i].body.reserveCapacity(bodyCapacity) }
    }

    deinit {
        ring.deinitialize(count: capacity)
        ring.deallocate()
    }

    /// Pushes queued now.
    var count: Int { locked { tail - head } }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    // MARK: Producer side

    /// Moves `push` into the queue, waiting while it is full; `push` comes back holding a spent slot's
    /// buffers (and stale contents), ready to be overwritten. Returns false, leaving `push` as it was, when the consumer has
    /// abandoned the queue.
    func put(_ push: inout OutgoingPush) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        lastPutWaited = false
        while !abandoned && tail - head == capacity {
            lastPutWaited = true
            producerWaitCount += 1
            producerWaiting = true
            condition.wait()
            producerWaiting = false
        }
        guard !abandoned else { return false }
        precondition(!closed, "put after close")
        swap(&push, &ring[tail % capacity])
        tail += 1
        puts += 1
        if consumerWaiting { condition.signal() }
        if consumerIdle {
            consumerIdle = false
            // Under the lock, so it cannot run after the consumer's engine ended: the consumer only
            // ends once it saw the queue closed, which takes this lock.
            wakeConsumer?()
        }
        return true
    }

    /// No more pushes: the consumer takes what is queued, then `take` returns false.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        if consumerWaiting { condition.signal() }
        if consumerIdle {
            consumerIdle = false
            wakeConsumer?()
        }
    }

    // MARK: Consumer side

    /// Moves the oldest queued push into `push` (whose buffers go back to the ring), waiting while the
    /// queue is empty and open. Returns false once the queue is closed and empty, or abandoned.
    func take(into push: inout OutgoingPush) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !abandoned && !closed && tail == head {
            consumerWaitCount += 1
            consumerWaiting = true
            condition.wait()
            consumerWaiting = false
        }
        guard !abandoned, tail != head else { return false }
        swap(&push, &ring[head % capacity])
        head += 1
        if producerWaiting, tail - head <= lowWater { wakeProducer() }
        return true
    }

    /// What `poll` found.
    enum Poll { case push, empty, ended }

    /// Like `take`, without waiting: `.empty` when the queue is open but has nothing now (the next `put`
    /// or `close` then calls `wakeConsumer`), `.ended` when it is closed and empty, or abandoned.
    func poll(into push: inout OutgoingPush) -> Poll {
        condition.lock()
        defer { condition.unlock() }
        if abandoned { return .ended }
        if tail == head {
            if closed { return .ended }
            if !consumerIdle { consumerWaitCount += 1 }
            consumerIdle = true
            return .empty
        }
        swap(&push, &ring[head % capacity])
        head += 1
        if producerWaiting, tail - head <= lowWater { wakeProducer() }
        return .push
    }

    /// The consumer stops taking: from now on `put` returns false (waking a producer that waits on a
    /// full queue), and every push still queued is passed to `each`, oldest first, then dropped. Returns
    /// how many there were. Calling it again passes nothing.
    @discardableResult
    func abandon(_ each: (OutgoingPush) -> Void) -> Int {
        condition.lock()
        defer { condition.unlock() }
        abandoned = true
        let n = tail - head
        while head != tail {
            each(ring[head % capacity])
            head += 1
        }
        if producerWaiting { condition.signal() }
        return n
    }
}
