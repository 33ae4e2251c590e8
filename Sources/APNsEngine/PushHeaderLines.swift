import APNsCore
import CCurl
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The request headers whose values differ from push to push (the rows of ``APNsHeaders/perPush`` a push kind
/// takes from each push), written into storage one transfer slot owns and linked in front of the push kind's
/// shared list, in slot order. One `curl_slist` node and one text buffer per slot are allocated with the slot,
/// so a push allocates nothing (a text longer than its row's limit grows its buffer once, and is refused by
/// APNs). libcurl only reads a header list; the shared list is freed by its ``HeaderSet``, never through these
/// nodes.
final class PushHeaderLines {
    private let nodes: UnsafeMutablePointer<curl_slist>
    /// By slot: `name: ` and room for the value and a NUL.
    private var texts: [UnsafeMutablePointer<CChar>]
    private var capacities: [Int]
    /// By slot: how its value is written (nil: no row has the slot), and its `name: ` prefix.
    private let writes: [Write?]
    private let prefixes: [[UInt8]]
    private enum Write { case seconds, text }

    init() {
        let count = PushHeaderValues.capacity
        nodes = .allocate(capacity: count)
        nodes.initialize(repeating: curl_slist(data: nil, next: nil), count: count)
        let rows = (0 ..< count).map { slot in APNsHeaders.perPush.first { $0.slot == slot } }
        writes = rows.map { row in row.map { if case .seconds = $0.value { return .seconds } else { return .text } } }
        prefixes = rows.map { Array("\($0?.name ?? ""): ".utf8) }
        capacities = zip(rows, prefixes).map { row, prefix in prefix.count + (row?.value.maxBytes ?? 0) + 1 }
        texts = capacities.map { .allocate(capacity: $0) }
        for t in texts { t[0] = 0 }
    }

    deinit {
        nodes.deallocate()
        for t in texts { t.deallocate() }
    }

    /// The list to send `push` with: `list` behind the lines `headers` says the push carries, each left out
    /// when the push has no value for it.
    /// - Parameter now: the wall clock in epoch seconds, read only for a push whose expiration counts from
    ///   its send (``PushHeaderValue/fromSend``).
    func link(_ push: OutgoingPush, _ headers: HeaderSlots, expirationBase: Int,
              before list: UnsafeMutablePointer<curl_slist>?, now: () -> Int = { Int(time(nil)) }) -> UnsafeMutablePointer<curl_slist>? {
        var head = list
        var slot = PushHeaderValues.capacity
        while slot > 0 {
            slot -= 1
            guard headers.contains(slot), let write = writes[slot] else { continue }
            let value = push.headers[slot]
            switch write {
            case .seconds:
                guard value.seconds >= 0 else { continue }
                writeSeconds(value.seconds == 0 ? 0 : (value.fromSend ? now() : expirationBase) + value.seconds, slot: slot)
            case .text:
                guard !value.text.isEmpty else { continue }
                writeText(value.text, slot: slot)
            }
            nodes[slot] = curl_slist(data: texts[slot], next: head)
            head = nodes + slot
        }
        return head
    }

    /// Writes the prefix at the start of the slot's buffer (growing it to hold `valueBytes` more); returns where
    /// the value goes.
    @inline(__always)
    private func writePrefix(slot: Int, valueBytes: Int) -> Int {
        let needed = prefixes[slot].count + valueBytes + 1
        if needed > capacities[slot] {
            texts[slot].deallocate()
            capacities[slot] = needed
            texts[slot] = .allocate(capacity: needed)
        }
        let raw = UnsafeMutableRawPointer(texts[slot])
        prefixes[slot].withUnsafeBytes { raw.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return prefixes[slot].count
    }

    private func writeText(_ value: [UInt8], slot: Int) {
        let at = writePrefix(slot: slot, valueBytes: value.count)
        let raw = UnsafeMutableRawPointer(texts[slot])
        value.withUnsafeBytes { raw.advanced(by: at).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        texts[slot][at + value.count] = 0
    }

    private func writeSeconds(_ epochSeconds: Int, slot: Int) {
        var at = writePrefix(slot: slot, valueBytes: 20)
        let text = texts[slot]
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        var x = UInt64(max(0, epochSeconds))
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(truncatingIfNeeded: 48 + x % 10)
                x /= 10
                n += 1
            } while x > 0
            while n > 0 {
                n -= 1
                text[at] = CChar(bitPattern: d[n])
                at += 1
            }
        }
        text[at] = 0
    }

    /// The text of the line last written for `header`, for tests.
    func line(_ header: APNsHeader) -> String { String(cString: texts[header.slot!]) }
}
