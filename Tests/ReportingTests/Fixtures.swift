import APNsCore
import Foundation
@testable import Reporting

/// Shared inputs for the Reporting tests. Times are monotonic nanoseconds from an arbitrary base.
enum Fixtures {
    /// A monotonic "run start" well above 0 (0 means "never" in `OutcomeSink`).
    static let t0: UInt64 = 5_000_000_000_000

    static func ns(ms: Double) -> UInt64 { UInt64(ms * 1_000_000) }
    static func ns(us: UInt64) -> UInt64 { us * 1_000 }

    /// A device token as it appears in streams: 64 hex digits. Must never appear in a report.
    static let deviceToken = "80b3c5a1d2e4f60718293a4b5c6d7e8f80b3c5a1d2e4f60718293a4b5c6d7e8f"

    static let configuration: RunConfig = {
        var w = RunConfig.Workload(name: "leave-requests", stream: "profiles/streams/leave-requests.ndjson",
                                   recipe: "profiles/recipes/leave-requests.yaml", bundleID: "com.example.app")
        w.pushType = .liveactivity
        var c = RunConfig(name: "leave-requests", profilePath: "profiles/leave-requests.yaml", workload: w)
        c.payload.expiration = .seconds(3_600)
        c.transport.connections = 2
        c.transport.streams = 50
        c.schedule.duration = .secondsRounded(60)
        return c
    }()

    static let environment = EnvironmentInfo(
        libcurl: "8.14.1", ssl: "OpenSSL/3.0.17", nghttp2: "1.64.0",
        os: "Linux test", cpuCount: 2, hostname: "bench-host"
    )

    static let engine: EngineCounters = {
        var e = EngineCounters()
        e.sent = 14
        e.connectionsOpened = 3
        e.providerTokenSignings = 1
        e.peakInFlight = 37
        return e
    }()

    /// 2025-04-16T10:00:00Z
    static let startedAt = Date(timeIntervalSince1970: 1_744_797_600)

    /// Records one push that was sent `sentAfterMs` after t0 and took `serviceMs`, intended `lateMs` before it was sent.
    static func send(
        _ recorder: RunRecorder, _ outcome: Outcome, priority: Priority = .immediate,
        sentAfterMs: Double = 0, serviceMs: Double = 1, lateMs: Double = 0
    ) {
        let sent = t0 + ns(ms: sentAfterMs)
        recorder.record(outcome, priority: priority, intended: sent - ns(ms: lateMs), sent: sent, completed: sent + ns(ms: serviceMs))
    }

    /// A recorder holding one known mix of every terminal class (18 planned).
    ///
    /// delivered 5 (3 at priority 10, 2 at priority 5) · rejected 4 (BadDeviceToken 2, TooManyRequests 1, HTTP502 1)
    /// · failed 3 (curl_7_couldnt_connect 2, curl_56_recv_error 1) · timed out 2 · not sent 4 (no_token 3, run_stopped 1)
    static func mixedRecorder() -> RunRecorder {
        let r = RunRecorder()
        r.start(atNanos: t0)
        send(r, .delivered, priority: .immediate, sentAfterMs: 0, serviceMs: 2)
        send(r, .delivered, priority: .immediate, sentAfterMs: 10, serviceMs: 4)
        send(r, .delivered, priority: .immediate, sentAfterMs: 20, serviceMs: 6)
        send(r, .delivered, priority: .powerAware, sentAfterMs: 1_000, serviceMs: 8, lateMs: 5)
        send(r, .delivered, priority: .powerAware, sentAfterMs: 1_010, serviceMs: 10, lateMs: 5)
        send(r, .rejected(.badDeviceToken), sentAfterMs: 30)
        send(r, .rejected(.badDeviceToken), sentAfterMs: 40)
        send(r, .rejected(.tooManyRequests), sentAfterMs: 1_020)
        send(r, .rejected(Reason(rawValue: "HTTP502", status: 502, handling: .unknown)), sentAfterMs: 1_030)
        let couldntConnect = TransportError(code: 7, key: "curl_7_couldnt_connect")
        send(r, .failed(couldntConnect), sentAfterMs: 50)
        send(r, .failed(couldntConnect), sentAfterMs: 60)
        send(r, .failed(TransportError(code: 56, key: "curl_56_recv_error")), sentAfterMs: 70)
        send(r, .timedOut, sentAfterMs: 80, serviceMs: 30_000)
        send(r, .timedOut, sentAfterMs: 90, serviceMs: 30_000)
        for _ in 0..<3 { r.record(.notSent(.noToken), priority: .immediate, intended: t0, sent: 0, completed: 0) }
        r.record(.notSent(.runStopped), priority: .powerAware, intended: t0, sent: 0, completed: 0)
        return r
    }

    /// Events of every class that plan `planned` pushes in all (the mixed recorder's 18 by default):
    /// two producing events, one state-only, one invalid event and one bad line (each invalid one counts a push).
    static func mixedEvents(planned: Int = 18) -> EventTally {
        var e = EventTally()
        e.record(kind: "leave.created", .producedPushes(4))
        e.record(kind: "leave.status", .producedPushes(planned - 6))
        e.record(kind: "leave.token", .stateOnly)
        e.record(kind: "leave.status", .invalid(cause: "unknown_request"))
        e.recordBadLine(line: 7, cause: "bad_json", detail: "unexpected end of line after \"token\":\"\(deviceToken)\"")
        return e
    }

    /// One event that planned exactly what `recorder` recorded, so its pushes balance.
    static func matchingEvents(_ recorder: RunRecorder) -> EventTally {
        var e = EventTally()
        e.record(kind: "test.event", recorder.planned > 0 ? .producedPushes(recorder.planned) : .stateOnly)
        return e
    }

    /// The report of `recorder`; its events are the mixed ones when it planned 18 pushes, else matching ones.
    /// The engine's counters are ``engine``'s, with each push the recorder saw sent, sent once.
    static func report(from recorder: RunRecorder, events: EventTally? = nil,
                       simulator: [String: Int]? = ["accepted": 5, "rejected": 4]) -> RunReport {
        var engine = engine
        engine.sent = recorder.sent
        return recorder.makeReport(
            configuration: configuration, events: events ?? (recorder.planned == 18 ? mixedEvents() : matchingEvents(recorder)),
            environment: environment, engine: engine, simulator: simulator,
            startedAt: startedAt, durationSeconds: 31.25
        )
    }

}
