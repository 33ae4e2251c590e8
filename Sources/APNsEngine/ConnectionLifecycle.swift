/// The engine's connections as a state machine: it takes what the engine saw (a connection opened, an
/// answer that passed authentication, a connection lost, time passing) and returns what to do. No sockets:
/// libcurl owns those; this decides how many streams the engine may have in flight and when.
///
/// The rules, from APNs' documented connection behaviour:
/// - **Warm-up.** APNs advertises MAX_CONCURRENT_STREAMS = 1 until a request with a valid provider token
///   has been posted, then raises it (to 1000). Until the first authenticated answer the engine keeps one
///   push in flight, then opens the whole window (libcurl also follows the server's SETTINGS per
///   connection, so a later lowered limit queues in libcurl instead of being refused).
/// - **Losing a connection** (transport error, `503 Shutdown`, a GOAWAY that made libcurl reconnect):
///   a connection that had lived `healthyLifetime`, or a loss after `healthyAnswers` authenticated answers
///   since the previous loss, is a normal end — reconnect at once (a server that sends GOAWAY every 30 s
///   after thousands of answers is not refusing us; libcurl does not say which connection an answer came
///   on, so answers are counted across the engine's connections). One that died sooner and emptier counts as a
///   failure: sends are held for a backoff of 1 s, 2 s, 4 s … up to 60 s, so that the engine never opens
///   and closes connections in a tight loop (APNs treats that as an attack). Failures reset after a
///   connection that ended normally. Pushes a lost connection did not process come back
///   to the engine as transport errors and are resent by the retry policy.
/// - **Idle.** With nothing sent or answered for `pingInterval` (about an hour), ask for an HTTP/2 PING.
public struct ConnectionLifecycle: Sendable {
    public struct Settings: Sendable, Equatable {
        /// First hold after a connection died young, in seconds. Default 1.
        public var reconnectInitial: Double = 1
        /// Longest hold, in seconds. Default 60.
        public var reconnectMax: Double = 60
        /// A connection that lived this long ended normally, in seconds. Default 60.
        public var healthyLifetime: Double = 60
        /// A loss after this many authenticated answers since the previous loss is a normal end, however
        /// young the connection. Default 100.
        public var healthyAnswers: Int = 100
        /// PING a connection idle this long, in seconds. Default 3600.
        public var pingInterval: Double = 3600
        /// Streams in flight until the first authenticated answer. Default 1 (what APNs allows).
        public var warmUpStreams: Int = 1

        public init() {}
    }

    public enum State: Equatable, Sendable {
        /// No authenticated answer yet on the current connection(s): `warmUpStreams` in flight.
        case warmingUp
        /// The whole window.
        case open
        /// Nothing new is sent until this monotonic time (ns).
        case holding(untilNanos: UInt64)
    }

    public enum Event: Equatable, Sendable {
        /// libcurl opened a connection (CURLINFO_NUM_CONNECTS of a finished transfer).
        case connectionOpened
        /// An answer came that only an authenticated request gets (200, 410, 413, 429 TooManyRequests, 5xx).
        case authenticatedAnswer
        /// A push was handed to libcurl.
        case sent
        /// A transfer ended without an answer because its connection went away (or the server said
        /// `Shutdown`): the connection is gone.
        case connectionLost
        /// Time passed; call on every loop turn.
        case tick
    }

    public enum Action: Equatable, Sendable {
        case none
        /// Send nothing new until this monotonic time (ns).
        case hold(untilNanos: UInt64)
        /// The window changed (opened after warm-up or after a hold): fill it.
        case resume
        /// Send an HTTP/2 PING on the idle connection(s).
        case ping
    }

    public let settings: Settings
    /// Connections the engine opens at the start (a later opening beyond these is a reconnect).
    public let initialConnections: Int
    public private(set) var state: State = .warmingUp
    /// Connections that died young in a row.
    public private(set) var consecutiveFailures = 0
    public private(set) var connectionsOpened = 0
    public private(set) var reconnects = 0
    public private(set) var holds = 0
    public private(set) var pings = 0
    /// Losses handled (one per lost connection, however many transfers failed with it).
    public private(set) var losses = 0
    /// Reconnects libcurl made by itself after the server ended a connection (GOAWAY or close).
    public private(set) var serverEnded = 0
    private var lastOpenedNanos: UInt64?
    /// Authenticated answers since the previous loss.
    private var answersSinceLoss = 0
    private var lastActivityNanos: UInt64
    private var lastPingNanos: UInt64 = 0
    /// A loss was handled (and held for, if it had to be); the next opening is its reconnect.
    private var reconnectPending = false

    public init(settings: Settings = Settings(), initialConnections: Int = 1, now: UInt64) {
        self.settings = settings
        self.initialConnections = max(1, initialConnections)
        self.lastActivityNanos = now
    }

    /// How many pushes may be in flight now, out of a configured `window`.
    @inline(__always)
    public func streamLimit(window: Int) -> Int {
        switch state {
        case .open: return window
        case .warmingUp: return min(window, settings.warmUpStreams)
        case .holding: return 0
        }
    }

    /// The monotonic time the engine should wake at for this machine, if it waits for one.
    public var wakeNanos: UInt64? {
        if case let .holding(until) = state { return until }
        return nil
    }

    public mutating func handle(_ event: Event, now: UInt64) -> Action {
        switch event {
        case .sent:
            lastActivityNanos = now
            return .none
        case .authenticatedAnswer:
            lastActivityNanos = now
            answersSinceLoss &+= 1
            if state == .warmingUp {
                state = .open
                return .resume
            }
            return .none
        case .connectionOpened:
            connectionsOpened += 1
            defer { lastOpenedNanos = now }
            if connectionsOpened <= initialConnections { return .none }
            reconnects += 1
            if reconnectPending {
                reconnectPending = false
                return .none
            }
            // libcurl reconnected by itself (the server sent GOAWAY and libcurl moved on): judge the
            // connection that went away by how long it had lived.
            serverEnded += 1
            return lost(now: now, warmUp: false)
        case .connectionLost:
            if case .holding = state { return .none }  // many transfers fail at once for one lost connection
            if reconnectPending { return .none }
            reconnectPending = true
            losses += 1
            return lost(now: now, warmUp: true)
        case .tick:
            if case let .holding(until) = state, now >= until {
                state = .warmingUp
                return .resume
            }
            let idle = Self.seconds(now &- lastActivityNanos)
            if state == .open, idle >= settings.pingInterval, Self.seconds(now &- lastPingNanos) >= settings.pingInterval {
                lastPingNanos = now
                pings += 1
                return .ping
            }
            return .none
        }
    }

    private mutating func lost(now: UInt64, warmUp: Bool) -> Action {
        let lived = lastOpenedNanos.map { Self.seconds(now &- $0) } ?? 0
        let answers = answersSinceLoss
        answersSinceLoss = 0
        if lived >= settings.healthyLifetime || answers >= settings.healthyAnswers {
            consecutiveFailures = 0
            if warmUp { state = .warmingUp }
            return .none
        }
        consecutiveFailures += 1
        let delay = RetryPolicy.exponential(initial: settings.reconnectInitial, multiplier: 2, cap: settings.reconnectMax, step: consecutiveFailures)
        let until = now + UInt64(delay * 1e9)
        state = .holding(untilNanos: until)
        holds += 1
        return .hold(untilNanos: until)
    }

    @inline(__always)
    static func seconds(_ nanos: UInt64) -> Double { Double(nanos) / 1e9 }
}
