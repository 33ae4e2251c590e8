import APNsCore
import CCurl
import Glibc

/// The stall watchdog: a push in flight for the stall timeout without a byte of its answer means its
/// connection has stopped answering. Such a connection is given up: the engine shuts its socket down both
/// ways, so libcurl sees it end, every push on it fails at once and is retried by the retry policy (as
/// `stall`), and the next pushes go out on a new connection. Counted once per connection.
///
/// It looks about once a second (a quarter of the timeout when that is shorter) and reads two numbers of
/// each push older than the timeout, nothing of the others. It decides; the engine carries out what it
/// returns.
struct StallWatchdog {
    /// A push that was on a connection the watchdog gave up: its answer never came.
    static let error = TransportError(code: -2, key: "stall")

    /// The timeout, ns; 0: the watchdog is off.
    private let timeoutNanos: UInt64
    /// When it looks next (monotonic ns).
    private var nextScan: UInt64 = 0
    /// libcurl's ids of the connections given up (ids are never reused within a multi handle).
    private var givenUp = Set<curl_off_t>()

    init(timeoutSeconds: Int) {
        timeoutNanos = UInt64(max(0, timeoutSeconds)) * 1_000_000_000
    }

    /// Whether it looks at the pushes in flight this turn.
    @inline(__always)
    func isDue(now: UInt64, inFlight: Int) -> Bool { timeoutNanos > 0 && inFlight > 0 && now >= nextScan }

    /// Looks at the transfers in flight: the sockets of the connections to give up now (each connection
    /// once), empty when none stalled.
    mutating func scan(_ slots: [TransferSlot], now: UInt64) -> [Int32] {
        nextScan = now + min(timeoutNanos / 4, 1_000_000_000)
        var sockets: [Int32] = []
        for slot in slots where slot.active && now &- slot.sentNanos >= timeoutNanos {
            guard Self.noAnswerYet(slot.easy), let id = Self.connectionID(slot.easy), !givenUp.contains(id) else { continue }
            // libcurl names a multiplexed transfer's connection by its ports, not its socket.
            var localPort = 0, peerPort = 0
            _ = ccurl_easy_getinfo_long(slot.easy, CURLINFO_LOCAL_PORT, &localPort)
            _ = ccurl_easy_getinfo_long(slot.easy, CURLINFO_PRIMARY_PORT, &peerPort)
            let socket = ccurl_find_tcp_socket(localPort, peerPort)
            guard socket >= 0 else { continue }
            givenUp.insert(id)
            sockets.append(socket)
        }
        return sockets
    }

    /// Whether the transfer is on a connection given up: its failure is a `stall`, young pushes' too.
    func isOnGivenUpConnection(_ slot: TransferSlot) -> Bool {
        guard let id = Self.connectionID(slot.easy) else { return false }
        return givenUp.contains(id)
    }

    private static func noAnswerYet(_ easy: UnsafeMutableRawPointer) -> Bool {
        var received: curl_off_t = 0, headerBytes = 0
        _ = ccurl_easy_getinfo_off_t(easy, CURLINFO_SIZE_DOWNLOAD_T, &received)
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_HEADER_SIZE, &headerBytes)
        return received == 0 && headerBytes == 0
    }

    private static func connectionID(_ easy: UnsafeMutableRawPointer) -> curl_off_t? {
        var id: curl_off_t = -1
        _ = ccurl_easy_getinfo_off_t(easy, CURLINFO_CONN_ID, &id)
        return id >= 0 ? id : nil
    }
}
