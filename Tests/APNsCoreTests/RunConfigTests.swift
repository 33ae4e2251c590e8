import APNsCore
import Foundation
import XCTest

/// The one run configuration: its rules are checked once and name their key, flags overlay it, and it
/// survives report.json unchanged.
final class RunConfigTests: XCTestCase {
    func base() -> RunConfig {
        RunConfig(name: "t", profilePath: "profiles/t.yaml",
                  workload: RunConfig.Workload(name: "order-changes", stream: "s.ndjson", recipe: "r.yaml", bundleID: "com.x"))
    }

    func assertRule(_ change: (inout RunConfig) -> Void, key: ConfigKey, mentions: String, cores: Int = 2,
                    file: StaticString = #filePath, line: UInt = #line) {
        var c = base()
        change(&c)
        XCTAssertThrowsError(try c.validate(cores: cores), file: file, line: line) { error in
            guard let e = error as? RunConfigError else { return XCTFail("not a RunConfigError: \(error)", file: file, line: line) }
            XCTAssertEqual(e.key, key, "\(e)", file: file, line: line)
            XCTAssertTrue(e.description.contains(mentions), "'\(e)' should mention \(mentions)", file: file, line: line)
        }
    }

    func testProductionAbove100PushesASecondNeedsTheExplicitOptIn() throws {
        for schedule in [Schedule.closedLoop, .recorded(speed: 1), .fixedRate(perSecond: 101), .ramp(from: 10, to: 500, seconds: 60)] {
            assertRule({ $0.target = .production; $0.schedule.mode = schedule }, key: .allowProductionLoad,
                       mentions: "is needed to send to production APNs faster than 100 pushes/s")
            var allowed = base()
            allowed.target = .production
            allowed.schedule.mode = schedule
            allowed.allowProductionLoad = true
            XCTAssertNoThrow(try allowed.validate(cores: 2), "\(schedule) with the opt-in")
        }
        for schedule in [Schedule.fixedRate(perSecond: 100), .ramp(from: 0, to: 100, seconds: 10)] {
            var slow = base()
            slow.target = .production
            slow.schedule.mode = schedule
            XCTAssertNoThrow(try slow.validate(cores: 2), "\(schedule) is slow enough")
        }
        var sandbox = base()
        sandbox.target = .sandbox
        XCTAssertNoThrow(try sandbox.validate(cores: 2), "sandbox needs no opt-in")
        // From the command line, the refusal is the flag's (the command line names it).
        var o = RunConfigOverrides()
        o.target = .production
        XCTAssertThrowsError(try base().overlaying(o).validate(setBy: o, cores: 2)) { error in
            XCTAssertEqual((error as? RunConfigFlagError)?.error.key, .allowProductionLoad, "\(error)")
            XCTAssertTrue((error as? RunConfigFlagError)?.error.problem.hasPrefix("is needed") == true, "\(error)")
        }
    }

    func testTheDefaultsAreValidAndDocumented() throws {
        let c = base()
        XCTAssertNoThrow(try c.validate(cores: 2))
        XCTAssertEqual(c.target, .simulator)
        XCTAssertEqual(c.transport.connections, 1)
        XCTAssertEqual(c.transport.streams, 100)
        XCTAssertEqual(c.transport.workers, 1)
        XCTAssertEqual(c.transport.pushTimeout, .milliseconds(30_000))
        XCTAssertEqual(c.auth.tokenRefresh, .seconds(50 * 60))
        XCTAssertEqual(c.payload.priority, .immediate)
        XCTAssertEqual(c.retry.attempts, 10)
        XCTAssertEqual(c.schedule.mode, .closedLoop)
        XCTAssertNil(c.coalescing.window)
        XCTAssertTrue(c.slo.isEmpty)
        XCTAssertEqual(c.topic, "com.x.push-type.liveactivity")
    }

    func testEveryRuleNamesItsKey() {
        assertRule({ $0.transport.connections = 65 }, key: .connections, mentions: "between 1 and 64, found 65")
        assertRule({ $0.transport.streams = 0 }, key: .streams, mentions: "between 1 and 1000")
        assertRule({ $0.transport.workers = 9; $0.transport.connections = 9 }, key: .workers, mentions: "between 1 and 8 on this machine", cores: 2)
        assertRule({ $0.transport.workers = 3; $0.transport.connections = 2 }, key: .workers, mentions: "3 connections or more")
        assertRule({ $0.transport.pushTimeout = .milliseconds(0) }, key: .pushTimeout, mentions: "must be between 1ms and 10m, found 0")
        assertRule({ $0.auth.tokenRefresh = .seconds(19 * 60) }, key: .tokenRefresh, mentions: "must be at least 20m and below 1h, found 19m")
        assertRule({ $0.payload.expiration = .seconds(-1) }, key: .expiration, mentions: "must be between 0 and 720h, found -1s")
        assertRule({ $0.payload.collapseID = String(repeating: "x", count: 65) }, key: .collapseID, mentions: "1 to 64 bytes")
        assertRule({ $0.payload.collapseID = "a\nb" }, key: .collapseID, mentions: "one line")
        assertRule({ $0.retry.attempts = 0 }, key: .retryAttempts, mentions: "between 1 and 100")
        assertRule({ $0.retry.backoff = .milliseconds(-1) }, key: .retryBackoff, mentions: "negative")
        assertRule({ $0.schedule.mode = .fixedRate(perSecond: 0) }, key: .rate, mentions: "positive")
        assertRule({ $0.schedule.mode = .recorded(speed: -1) }, key: .speed, mentions: "positive")
        assertRule({ $0.schedule.mode = .ramp(from: 1, to: 2, seconds: 0) }, key: .ramp, mentions: "positive")
        assertRule({ $0.schedule.duration = .secondsRounded(0) }, key: .duration, mentions: "positive number of seconds")
        assertRule({ $0.coalescing.window = .milliseconds(0) }, key: .coalesce, mentions: "positive")
        assertRule({ $0.workload.pushType = .alert; $0.coalescing.window = .milliseconds(250) }, key: .coalesce, mentions: "Live Activity")
        assertRule({ $0.slo.p99 = .milliseconds(0) }, key: .sloP99, mentions: "must be between 1ms and 1h, found 0")
        assertRule({ $0.slo.minDelivered = 1.5 }, key: .sloMinDelivered, mentions: "between 0 and 1")
        assertRule({ $0.simulator.fast = true; $0.target = .sandbox }, key: .fastSimulator, mentions: "embedded simulator only")
    }

    func testFlagsOverlayTheProfileAndAnErrorNamesWhereTheValueCameFrom() throws {
        var o = RunConfigOverrides()
        o.connections = 4
        o.schedule = .fixedRate(perSecond: 200)
        o.coalesce = .milliseconds(0)
        o.priority = .powerAware
        var c = base()
        c.coalescing.window = .milliseconds(500)
        c.transport.streams = 50
        let laid = c.overlaying(o)
        XCTAssertEqual(laid.transport.connections, 4)
        XCTAssertEqual(laid.transport.streams, 50, "what no flag set stays the profile's")
        XCTAssertEqual(laid.schedule.mode, .fixedRate(perSecond: 200))
        XCTAssertNil(laid.coalescing.window, "--coalesce 0 turns coalescing off")
        XCTAssertEqual(laid.payload.priority, .powerAware)
        XCTAssertEqual(o.keys, [.connections, .rate, .coalesce, .priority])

        var bad = RunConfigOverrides()
        bad.streams = 2000
        XCTAssertThrowsError(try c.overlaying(bad).validate(setBy: bad, cores: 2)) { error in
            XCTAssertEqual(error as? RunConfigFlagError,
                           RunConfigFlagError(RunConfigError(.streams, "must be between 1 and 1000 (APNs allows up to about 1000), found 2000")))
        }
        var fromProfile = c
        fromProfile.transport.streams = 2000
        XCTAssertThrowsError(try fromProfile.validate(setBy: RunConfigOverrides(), cores: 2)) { error in
            XCTAssertEqual("\(error)", "profiles/t.yaml: 'streams' must be between 1 and 1000 (APNs allows up to about 1000), found 2000")
        }
    }

    func testItSurvivesJSONUnchanged() throws {
        var c = base()
        c.description = "everything set"
        c.target = .url("https://127.0.0.1:2197")
        c.transport.workers = 2
        c.transport.connections = 2
        c.schedule.mode = .ramp(from: 10, to: 100, seconds: 30)
        c.schedule.duration = .secondsRounded(12.5)
        c.payload.collapseID = "store-1"
        c.payload.expiration = .seconds(0)
        c.coalescing.window = .milliseconds(250)
        c.slo.p99 = .milliseconds(900)
        c.slo.minDelivered = 0.9
        c.workload.deadTokens = "dead.txt"
        c.workload.badLines = .stop
        for mode in [Schedule.closedLoop, .recorded(speed: 60), .fixedRate(perSecond: 2000), .ramp(from: 10, to: 100, seconds: 30)] {
            c.schedule.mode = mode
            let json = try JSONEncoder().encode(c)
            XCTAssertEqual(try JSONDecoder().decode(RunConfig.self, from: json), c)
        }
        let json = String(decoding: try JSONEncoder().encode(c), as: UTF8.self)
        XCTAssertTrue(json.contains(#""kind":"ramp""#), json)
        XCTAssertTrue(json.contains(#""target":"https:\/\/127.0.0.1:2197""#), json)
        XCTAssertThrowsError(try JSONDecoder().decode(Schedule.self, from: Data(#"{"kind":"sometimes"}"#.utf8)))
    }
}
