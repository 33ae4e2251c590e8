import APNsCore
import CCurl
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The request headers whose values differ from push to push (`apns-collapse-id` and `apns-expiration` read
/// from each push), written into storage one transfer slot owns and linked in front of the push kind's
/// shared list. The two `curl_slist` nodes and their text are allocated with the slot, so a push allocates
/// nothing. libcurl only reads a header list; the shared list is freed by its ``HeaderSet``, never through
/// these nodes.
final class PushHeaderLines {
    private let nodes: UnsafeMutablePointer<curl_slist>
    private var collapseText: UnsafeMutablePointer<CChar>
    private var collapseCapacity: Int
    private let expirationText: UnsafeMutablePointer<CChar>
    private static let collapsePrefix = Array("apns-collapse-id: ".utf8)
    private static let expirationPrefix = Array("apns-expiration: ".utf8)
    /// The prefix, 20 digits and a NUL.
    private static let expirationCapacity = 48

    init() {
        nodes = .allocate(capacity: 2)
        nodes.initialize(repeating: curl_slist(data: nil, next: nil), count: 2)
        // APNs takes collapse ids of at most 64 bytes; a longer one grows the buffer (and is refused by APNs).
        collapseCapacity = Self.collapsePrefix.count + 64 + 1
        collapseText = .allocate(capacity: collapseCapacity)
        expirationText = .allocate(capacity: Self.expirationCapacity)
    }

    deinit {
        nodes.deallocate()
        collapseText.deallocate()
        expirationText.deallocate()
    }

    /// The list to send `push` with: `list` behind the lines `headers` says the push carries, each left out
    /// when the push has no value for it.
    /// - Parameter now: the wall clock in epoch seconds, read only for a push whose expiration counts from
    ///   its send (``OutgoingPush/expirationFromSend``).
    func link(_ push: OutgoingPush, _ headers: PerPushHeaders, expirationBase: Int,
              before list: UnsafeMutablePointer<curl_slist>?, now: () -> Int = { Int(time(nil)) }) -> UnsafeMutablePointer<curl_slist>? {
        var head = list
        if headers.collapseID, !push.collapseID.isEmpty {
            writeCollapse(push.collapseID)
            nodes[0] = curl_slist(data: collapseText, next: head)
            head = nodes
        }
        if headers.expiration, push.expirationSeconds >= 0 {
            writeExpiration(push.expirationSeconds == 0 ? 0 : (push.expirationFromSend ? now() : expirationBase) + push.expirationSeconds)
            nodes[1] = curl_slist(data: expirationText, next: head)
            head = nodes + 1
        }
        return head
    }

    private func writeCollapse(_ value: [UInt8]) {
        let needed = Self.collapsePrefix.count + value.count + 1
        if needed > collapseCapacity {
            collapseText.deallocate()
            collapseCapacity = needed
            collapseText = .allocate(capacity: needed)
        }
        let raw = UnsafeMutableRawPointer(collapseText)
        Self.collapsePrefix.withUnsafeBytes { raw.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        value.withUnsafeBytes { raw.advanced(by: Self.collapsePrefix.count).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        collapseText[needed - 1] = 0
    }

    private func writeExpiration(_ epochSeconds: Int) {
        let raw = UnsafeMutableRawPointer(expirationText)
        Self.expirationPrefix.withUnsafeBytes { raw.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        var at = Self.expirationPrefix.count
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
                expirationText[at] = CChar(bitPattern: d[n])
                at += 1
            }
        }
        expirationText[at] = 0
    }

    /// The text of the lines last linked, for tests.
    var collapseLine: String { String(cString: collapseText) }
    var expirationLine: String { String(cString: expirationText) }
}
