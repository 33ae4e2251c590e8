import Foundation

/// What a subprocess printed, collected as it comes, for waiting on without sleeping.
public final class LineCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer = Data()
    private var closed = false

    public init() {}

    /// Reads `handle` to its end on a thread of its own, then closes: one reader, so chunks are appended in
    /// the order they were written (Foundation's readabilityHandler may run its calls on different threads).
    /// Reading as it comes keeps the writer from blocking on a full pipe.
    public func readInOrder(_ handle: FileHandle) {
        let source = UncheckedHandle(handle)
        let reader = Thread { [self] in
            while true {
                let d = source.handle.availableData
                if d.isEmpty { break }
                append(d)
            }
            close()
        }
        reader.name = "child-output"
        reader.start()
    }

    public func append(_ data: Data) { condition.lock(); buffer.append(data); condition.broadcast(); condition.unlock() }
    public func close() { condition.lock(); closed = true; condition.broadcast(); condition.unlock() }

    public var text: String { condition.lock(); defer { condition.unlock() }; return String(decoding: buffer, as: UTF8.self) }
    public var all: [String] { text.split(separator: "\n").map(String.init) }
    /// Whether the writer closed its end (every process holding it exited).
    public var isClosed: Bool { condition.lock(); defer { condition.unlock() }; return closed }

    /// Waits until `predicate` holds over the lines or the output closed; false on timeout or close.
    public func wait(timeout: Double, until predicate: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
            if predicate(lines) { return true }
            if closed || Date() > deadline { return false }
            _ = condition.wait(until: deadline)
        }
    }

    /// Waits until the output closed; false if it was still open after `timeout` seconds.
    public func waitClosed(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !closed {
            if !condition.wait(until: deadline) { return closed }
        }
        return true
    }
}

/// A file handle read by one thread only, the reader's.
private struct UncheckedHandle: @unchecked Sendable {
    let handle: FileHandle
    init(_ handle: FileHandle) { self.handle = handle }
}
