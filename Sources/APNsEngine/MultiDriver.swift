import APNsCore
import CCurl
import Foundation

/// How the engine drives its libcurl multi handle.
///
/// Both drives wait until a socket is ready, libcurl's own timer expires, the next push is due or
/// another thread calls `wake()`, whichever comes first, and never spin: the next push's due time is
/// kept by a timerfd with nanosecond precision (libcurl's waits count whole milliseconds, rounded up),
/// so a push due in 0.3 ms neither polls with timeout 0 over and over nor waits a whole millisecond.
public enum CurlDrive: String, Sendable, CaseIterable, Codable {
    /// `curl_multi_perform` then `curl_multi_poll` with the timerfd among its fds. Every perform walks
    /// every transfer in the multi handle.
    case poll
    /// `curl_multi_socket_action` with an epoll set that libcurl's socket callback keeps, libcurl's timer
    /// callback, the timerfd and an eventfd for `wake()`. A socket that only has something to read is read by
    /// one transfer of its connection (``MultiDriver/readThroughOne(_:)``); for any other event libcurl runs every
    /// transfer of the socket. Then the transfers whose timers expired run.
    case socketAction = "socket-action"

    /// The drive set by `APNSBENCH_CURL_DRIVE` (`poll` or `socket-action`), if any.
    public static var fromEnvironmentIfSet: CurlDrive? {
        ProcessInfo.processInfo.environment["APNSBENCH_CURL_DRIVE"].flatMap(CurlDrive.init(rawValue:))
    }

    /// The drive a new engine uses unless told otherwise: `APNSBENCH_CURL_DRIVE` if set, else ``default``.
    public static var fromEnvironment: CurlDrive { fromEnvironmentIfSet ?? .default }

    /// The drive for an engine that is not told its schedule.
    public static let `default` = CurlDrive.poll

    /// The drive for an engine of `connections` connections, sending open loop (a rate, a ramp, recorded
    /// time) or closed loop: `APNSBENCH_CURL_DRIVE` if set, else the one measured faster there
    /// (docs/benchmarks.md, "The engine at APNs-like latency"). Open loop, a wake-up sends the one or few
    /// pushes due and `curl_multi_perform` would walk every transfer in flight each time, where
    /// socket-action runs only what is ready; closed loop, socket-action matches poll on one or two
    /// connections and falls behind it on more (each connection's events run all of its streams apart,
    /// with an `epoll_ctl` per change of what libcurl watches).
    public static func chosen(openLoop: Bool, connections: Int) -> CurlDrive {
        if let set = fromEnvironmentIfSet { return set }
        return openLoop || connections <= 2 ? .socketAction : .poll
    }
}

/// The engine's multi handle as it is driven and waited on: libcurl's work (`perform`), the wait
/// (`wait(due:now:)`) and the cross-thread wake. One per engine, used on the engine's thread only
/// (except `wake()`).
final class MultiDriver {
    let drive: CurlDrive
    private let multi: UnsafeMutableRawPointer
    /// Expires at the next push's due time (armed only for a due time, not for the idle cap).
    private let timerFD: Int32
    /// What `timerFD` is armed at (monotonic ns); 0 when disarmed or already expired and read.
    private var armedNanos: UInt64 = 0
    /// socket-action: the epoll set (libcurl's sockets, `timerFD`, `wakeFD`) and the wake eventfd.
    private var epollFD: Int32 = -1
    private var wakeFD: Int32 = -1
    /// socket-action: when libcurl wants `CURL_SOCKET_TIMEOUT` (monotonic ns); `.max` when it has no timer.
    fileprivate var curlDeadline: UInt64 = .max
    private let ready: UnsafeMutablePointer<ccurl_ready>
    private static let readyCapacity: Int32 = 64
    private var waitFD = curl_waitfd()
    private var running: Int32 = 0
    /// Waits that ended before the idle cap with nothing ready (no socket, no timerfd, no wake): libcurl's
    /// own timer, or a spin (a wait with timeout 0 over and over).
    private(set) var emptyWakeUps = 0
    /// The longest wait with nothing due: the loop's housekeeping (progress, lifecycle ticks) runs at least this often.
    static let idleCapMillis: Int32 = 100
    /// socket-action: the transfer handed to libcurl last, the one that reads a socket for all (``readThroughOne(_:)``).
    private var newest: UnsafeMutableRawPointer?
    /// socket-action: readable sockets read by one transfer, and those handed to libcurl whole (every transfer of the
    /// socket run).
    private(set) var readsByOne = 0
    private(set) var readsByAll = 0

    init(multi: UnsafeMutableRawPointer, drive: CurlDrive) throws {
        self.multi = multi
        self.drive = drive
        timerFD = ccurl_timerfd_create()
        guard timerFD >= 0 else { throw EngineError.curlSetup("timerfd_create failed: \(String(cString: strerror(errno)))") }
        ready = .allocate(capacity: Int(Self.readyCapacity))
        waitFD.fd = timerFD
        waitFD.events = Int16(CURL_WAIT_POLLIN)
        guard drive == .socketAction else { return }
        epollFD = ccurl_epoll_create()
        wakeFD = ccurl_eventfd_create()
        guard epollFD >= 0, wakeFD >= 0 else {
            throw EngineError.curlSetup("epoll or eventfd for the socket-action drive: \(String(cString: strerror(errno)))")
        }
        guard ccurl_epoll_watch(epollFD, timerFD, CURL_POLL_IN) == 0, ccurl_epoll_watch(epollFD, wakeFD, CURL_POLL_IN) == 0 else {
            throw EngineError.curlSetup("epoll_ctl: \(String(cString: strerror(errno)))")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard ccurl_multi_setopt_socket_function(multi, driverSocketCallback) == CURLM_OK,
              ccurl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, me) == CURLM_OK,
              ccurl_multi_setopt_timer_function(multi, driverTimerCallback) == CURLM_OK,
              ccurl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, me) == CURLM_OK
        else { throw EngineError.curlSetup("curl_multi_setopt(SOCKETFUNCTION/TIMERFUNCTION) failed") }
    }

    /// Detaches the callbacks from the multi handle (which may outlive this value by a little in
    /// `CurlEngine.deinit`) and closes the descriptors.
    func close() {
        if drive == .socketAction {
            _ = ccurl_multi_setopt_socket_function(multi, nil)
            _ = ccurl_multi_setopt_timer_function(multi, nil)
        }
        newest = nil
        ccurl_fd_close(timerFD)
        ccurl_fd_close(epollFD)
        ccurl_fd_close(wakeFD)
        epollFD = -1
        wakeFD = -1
    }

    deinit { ready.deallocate() }

    /// Lets libcurl do what it can without waiting: poll drive, `curl_multi_perform` (every transfer);
    /// socket-action drive, the transfers whose timers expired (a transfer just added is one).
    @inline(__always)
    func perform() throws {
        switch drive {
        case .poll:
            let mc = curl_multi_perform(multi, &running)
            guard mc == CURLM_OK else { throw EngineError.curlSetup("curl_multi_perform failed: \(String(cString: curl_multi_strerror(mc)))") }
        case .socketAction:
            try runExpiredTimer(now: MonotonicTime.now())
        }
    }

    /// Waits until a socket is ready, libcurl's timer expires, `due` (monotonic ns) passes, or `wake()`
    /// is called; with nothing due, at most `idleCapMillis`. On the socket-action drive the ready
    /// sockets are handed to libcurl before it returns. The caller does not wait for a `due` already past
    /// (it has work): one call is one wake-up.
    func wait(due: UInt64?, now: UInt64) throws {
        var timeout = Self.idleCapMillis
        if let due {
            let left = due > now ? due - now : 0
            // Whole milliseconds rounded up, so that libcurl's wait never ends before the due time by
            // itself; the timerfd ends it on time.
            if left < UInt64(Self.idleCapMillis) * 1_000_000 {
                timeout = Int32((left + 999_999) / 1_000_000)
                arm(due)
            }
        }
        switch drive {
        case .poll:
            waitFD.revents = 0
            var ready: Int32 = 0
            let mc = curl_multi_poll(multi, &waitFD, 1, Int32(timeout), &ready)
            guard mc == CURLM_OK else { throw EngineError.curlSetup("curl_multi_poll failed: \(String(cString: curl_multi_strerror(mc)))") }
            if waitFD.revents != 0 { expired() }
            if ready == 0 && timeout < Self.idleCapMillis { emptyWakeUps += 1 }
        case .socketAction:
            if curlDeadline != .max {
                let curlTimeout = curlDeadline <= now ? 0 : Int32(min((curlDeadline - now + 999_999) / 1_000_000, UInt64(Self.idleCapMillis)))
                timeout = min(timeout, curlTimeout)
            }
            let n = ccurl_epoll_wait(epollFD, ready, Self.readyCapacity, timeout)
            guard n >= 0 else { throw EngineError.curlSetup("epoll_wait failed: \(String(cString: strerror(errno)))") }
            if n == 0 && timeout < Self.idleCapMillis { emptyWakeUps += 1 }
            for i in 0..<Int(n) {
                let r = ready[i]
                if r.fd == timerFD {
                    expired()
                } else if r.fd == wakeFD {
                    ccurl_fd_clear(wakeFD)
                } else if r.select == CURL_CSELECT_IN, try readThroughOne(r.fd) {
                    readsByOne += 1
                } else {
                    readsByAll += 1
                    try socketAction(r.fd, r.select)
                }
            }
            try runExpiredTimer(now: MonotonicTime.now())
        }
    }

    /// libcurl has work queued now (its timer says 0: a stream with buffered data, a transfer just
    /// added), so a wait would return at once with nothing ready: perform instead.
    @inline(__always)
    func libcurlHasWorkNow(now: UInt64) -> Bool {
        switch drive {
        case .poll:
            var ms = -1
            return curl_multi_timeout(multi, &ms) == CURLM_OK && ms == 0
        case .socketAction:
            return curlDeadline <= now
        }
    }

    /// Ends a wait early; safe from any thread.
    func wake() {
        switch drive {
        case .poll: _ = curl_multi_wakeup(multi)
        case .socketAction: ccurl_eventfd_signal(wakeFD)
        }
    }

    /// Arms the timerfd at `due` unless it is armed there already (one system call per new due time).
    @inline(__always)
    private func arm(_ due: UInt64) {
        guard due != armedNanos else { return }
        if ccurl_timerfd_arm(timerFD, due) == 0 { armedNanos = due }
    }

    /// The timerfd fired: read it back to unreadable.
    @inline(__always)
    private func expired() {
        ccurl_fd_clear(timerFD)
        armedNanos = 0
    }

    /// socket-action: calls libcurl's timeout action while its timer has expired (it may set a new timer
    /// of 0 from inside, for a transfer that has more to do: bounded, the next wait takes the rest).
    @inline(__always)
    private func runExpiredTimer(now: UInt64) throws {
        var turns = 0
        while curlDeadline <= now && turns < 4 {
            curlDeadline = .max
            try socketAction(CURL_SOCKET_TIMEOUT, 0)
            turns += 1
        }
    }

    /// A transfer was handed to libcurl.
    @inline(__always)
    func added(_ easy: UnsafeMutableRawPointer) { newest = easy }

    /// A socket with only something to read, read by one transfer instead of all. For a ready socket, libcurl
    /// 8.14.1 runs every transfer of its connection, and each reads the socket until EAGAIN and polls it again:
    /// two system calls per transfer in flight, for every answer. One transfer's read takes in the whole
    /// connection's input, and HTTP/2 hands each stream's frames to its transfer and schedules only those. So the
    /// transfer added last is scheduled alone (`curl_easy_pause(CURLPAUSE_CONT)` on a transfer that is not paused
    /// only does that) and the timer action runs it and what it scheduled. Every transfer of the socket runs as
    /// before when that one has no connection (done, or not yet attached), or when after it ran the socket still
    /// has something to read (it is another connection's) or that transfer has its own answer (its read stops at
    /// its stream's end, which may leave other streams' frames unread).
    private func readThroughOne(_ fd: curl_socket_t) throws -> Bool {
        guard let easy = newest, curl_easy_pause(easy, CURLPAUSE_CONT) == CURLE_OK else { return false }
        try socketAction(CURL_SOCKET_TIMEOUT, 0)
        var status = 0
        return ccurl_fd_readable(fd) == 0 && ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK && status == 0
    }

    @inline(__always)
    private func socketAction(_ fd: curl_socket_t, _ select: Int32) throws {
        let mc = curl_multi_socket_action(multi, fd, select, &running)
        guard mc == CURLM_OK else { throw EngineError.curlSetup("curl_multi_socket_action failed: \(String(cString: curl_multi_strerror(mc)))") }
    }

    fileprivate func watch(_ fd: curl_socket_t, _ what: Int32) -> Int32 {
        ccurl_epoll_watch(epollFD, fd, what) == 0 ? 0 : -1
    }
}

/// libcurl tells which of its sockets to watch for what: mirrored into the epoll set.
private let driverSocketCallback: curl_socket_callback = { _, fd, what, userp, _ in
    guard let userp else { return -1 }
    return Unmanaged<MultiDriver>.fromOpaque(userp).takeUnretainedValue().watch(fd, what)
}

/// libcurl wants `CURL_SOCKET_TIMEOUT` after `timeoutMillis` (0: as soon as possible), or no call (-1).
private let driverTimerCallback: curl_multi_timer_callback = { _, timeoutMillis, userp in
    guard let userp else { return -1 }
    let driver = Unmanaged<MultiDriver>.fromOpaque(userp).takeUnretainedValue()
    driver.curlDeadline = timeoutMillis < 0 ? .max : MonotonicTime.now() + UInt64(timeoutMillis) * 1_000_000
    return 0
}
