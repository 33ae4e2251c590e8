import APNsCore
@testable import Replay
import TestSupport
import XCTest

/// The lines every profile of these tests starts with.
private let orderChangesProfileHead = """
    name: t
    workload: order-changes
    recipe: \(RepoFiles.recipe("order-changes"))
    stream: s.ndjson
    bundle_id: com.example.app

    """

/// Profiles are read strictly: every error names the file, the line and the key.
final class ProfileLoaderTests: XCTestCase {
    let base = orderChangesProfileHead

    func parse(_ extra: String) throws -> RunConfig { try ProfileLoader.parse(yaml: base + extra, file: "p.yaml") }

    func assertError(_ extra: String, line: Int, mentions words: [String], file: StaticString = #filePath, l: UInt = #line) {
        XCTAssertThrowsError(try parse(extra), file: file, line: l) { error in
            guard let e = error as? ProfileError else { return XCTFail("not a ProfileError: \(error)", file: file, line: l) }
            XCTAssertEqual(e.file, "p.yaml", file: file, line: l)
            XCTAssertEqual(e.line, line, "\(e)", file: file, line: l)
            for w in words { XCTAssertTrue("\(e)".contains(w), "'\(e)' should mention \(w)", file: file, line: l) }
        }
    }

    func testTuningKnobsAndRetryAndSLOAreRead() throws {
        let p = try parse("""
            collapse_id: store-42
            retry_attempts: 4
            retry_backoff: 500ms
            retry_max_elapsed: 2m
            slo_p99: 750ms
            slo_min_delivered: 0.9
            workers: 2
            connections: 4
            expiration_seconds: 3600
            """)
        XCTAssertEqual(p.payload.collapseID, "store-42")
        XCTAssertEqual(p.retry.attempts, 4)
        XCTAssertEqual(p.retry.backoff, .milliseconds(500))
        XCTAssertEqual(p.retry.maxElapsed, .milliseconds(120_000))
        XCTAssertEqual(p.slo.p99, .milliseconds(750))
        XCTAssertEqual(p.slo.minDelivered, 0.9)
        XCTAssertEqual(p.transport.workers, 2)
        XCTAssertEqual(p.transport.connections, 4)
        XCTAssertEqual(p.payload.expiration, .seconds(3600))
        let defaults = try parse("")
        XCTAssertNil(defaults.payload.collapseID)
        XCTAssertEqual(defaults.retry, RunConfig.Retry(), "the documented defaults: 10 attempts, 1 s doubling to 60 s, within 5 minutes")
        XCTAssertEqual(defaults.retry.attempts, 10)
        XCTAssertTrue(defaults.slo.isEmpty)
        XCTAssertEqual(defaults.transport.connections, 1)
        XCTAssertEqual(defaults.transport.streams, 100)
        XCTAssertEqual(defaults.schedule.mode, .closedLoop)
        XCTAssertEqual(defaults.profilePath, "p.yaml")
        XCTAssertEqual(defaults.workload.stream, "s.ndjson")
    }

    func testScheduleDurationAndCoalescingAreRead() throws {
        let p = try parse("schedule: rate\nrate: 250\nduration: 30s\ncoalesce: 250ms\n")
        XCTAssertEqual(p.schedule.mode, .fixedRate(perSecond: 250))
        XCTAssertEqual(p.schedule.duration, .seconds(30))
        XCTAssertEqual(p.coalescing.window, .milliseconds(250))
    }

    func testRangesAreTheConfigurationsOwnRulesNamedByKeyAndLine() {
        assertError("connections: 65\n", line: 6, mentions: ["'connections'", "between 1 and 64", "65"])
        assertError("streams: 0\n", line: 6, mentions: ["'streams'", "between 1 and 1000"])
        assertError("connections: 1\nworkers: 2\n", line: 7, mentions: ["'workers'", "2 connections or more"])
        assertError("token_refresh: 61m\n", line: 6, mentions: ["'token_refresh' must be at least 20m and below 1h, found 61m"])
        assertError("token_refresh_minutes: 61\n", line: 6, mentions: ["'token_refresh' must be at least 20m and below 1h, found 61m"])
        assertError("expiration: -1s\n", line: 6, mentions: ["'expiration'", "found '-1s'"])
        assertError("expiration: 1500ms\n", line: 6, mentions: ["'expiration' must be whole seconds, like 10s or 1m (0: deliver now or never), found '1500ms'"])
        assertError("schedule: rate\nrate: -5\n", line: 7, mentions: ["'rate'", "positive"])
        assertError("push_type: alert\ncoalesce: 1s\n", line: 7, mentions: ["'coalesce'", "Live Activity"])
        assertError("duration: 0s\n", line: 6, mentions: ["duration"])
    }

    func testBadValuesNameTheirKeyAndLine() {
        assertError("collapse_id: \(String(repeating: "x", count: 65))\n", line: 6, mentions: ["collapse_id", "64"])
        assertError("streams: 100\nretry_attempts: 0\n", line: 7, mentions: ["retry_attempts"])
        assertError("retry_backoff: soon\n", line: 6, mentions: ["retry_backoff", "soon"])
        assertError("slo_min_delivered: 1.5\n", line: 6, mentions: ["slo_min_delivered"])
        assertError("slo_p99: fast\n", line: 6, mentions: ["'slo_p99' must be a duration like 250ms, 10s or 1h30m"])
        assertError("retries: 3\n", line: 6, mentions: ["retries"])
        assertError("connections: two\n", line: 6, mentions: ["connections", "two"])
    }

    /// `workload:` beside `recipe:` is optional; given, it must be the recipe's name. Without it the workload
    /// is the recipe's name; `template:` is no key of a profile any more (each push rule names its template).
    func testTheWorkloadIsTheRecipesName() throws {
        XCTAssertThrowsError(try ProfileLoader.parse(yaml: base.replacingOccurrences(of: "workload: order-changes", with: "workload: leave-requests"),
            file: "p.yaml")) { error in
            XCTAssertEqual((error as? ProfileError)?.line, 2, "\(error)")
            XCTAssertEqual((error as? ProfileError)?.message,
                           "'workload' is 'leave-requests', but the recipe \(RepoFiles.recipe("order-changes")) "
                               + "is 'order-changes' (the workload is the recipe's; 'workload: mix' mixes recipes)")
        }
        let unnamed = try ProfileLoader.parse(yaml: base.replacingOccurrences(of: "workload: order-changes\n", with: ""), file: "p.yaml")
        XCTAssertEqual(unnamed.workload.name, "order-changes")
        XCTAssertEqual(unnamed.workload.recipe, RepoFiles.recipe("order-changes"))
        assertError("template: t.json\n", line: 6, mentions: ["unknown key 'template'"])
    }

    func testADurationTooLongForTheClockIsAnErrorNotACrash() throws {
        let huge = String(repeating: "4", count: 90)
        assertError("retry_backoff: \(huge)ms\n", line: 6, mentions: ["retry_backoff", "at most a year"])
        assertError("coalesce: \(huge)\n", line: 6, mentions: ["coalesce"])
        assertError("duration: 367d\n", line: 6, mentions: ["duration"])
        XCTAssertNil(DurationText.millis("1e300s"))
        XCTAssertNil(DurationText.millis("\(DurationText.maxMillis + 1)ms"))
        XCTAssertEqual(DurationText.millis("\(DurationText.maxMillis)ms"), DurationText.maxMillis)
        XCTAssertEqual(DurationText.millis("1.5s"), 1500)
        XCTAssertEqual(DurationText.millis("5m"), 300_000)
        XCTAssertNil(DurationText.millis("250"), "a bare number has no unit")
        XCTAssertEqual(DurationText.refusal("250"), "'250' has no unit: write 250s or 250ms")
        XCTAssertNil(DurationText.millis("0ms"))
        XCTAssertNil(DurationText.millis("-1s"))
    }
}

/// The SLO's error shares and the report interval, read strictly.
final class ProfileLoaderSLOTests: XCTestCase {
    let base = orderChangesProfileHead

    func testErrorSharesAndTheReportIntervalAreRead() throws {
        let p = try ProfileLoader.parse(yaml: base + "slo_max_error_share: {rejected: 0.01, timed_out: 0}\nreport_interval: 10s\n", file: "p.yaml")
        XCTAssertEqual(p.slo.maxErrorShare, ["rejected": 0.01, "timed_out": 0])
        XCTAssertEqual(p.timelineInterval, .seconds(10))
        XCTAssertEqual(try ProfileLoader.parse(yaml: base, file: "p.yaml").timelineInterval, .seconds(1), "1 s by default")
    }

    func testAnUnknownClassABadShareOrAFractionalIntervalNamesKeyAndLine() {
        for (extra, words) in [("slo_max_error_share: {throttled: 0.1}\n", ["'slo_max_error_share' has an unknown class 'throttled'"]),
                               ("slo_max_error_share: {failed: 1.5}\n", ["failed must be a share between 0 and 1, found 1.5"]),
                               ("slo_max_error_share: 0.1\n", ["must be a mapping of classes to shares"]),
                               ("report_interval: 1500ms\n", ["'report_interval' must be whole seconds"]),
                               ("report_interval: 61m\n", ["'report_interval' must be between 1 and 3600"])] {
            XCTAssertThrowsError(try ProfileLoader.parse(yaml: base + extra, file: "p.yaml"), extra) { error in
                guard let e = error as? ProfileError else { return XCTFail("\(error)") }
                XCTAssertEqual(e.line, 6, "\(e)")
                for w in words { XCTAssertTrue("\(e)".contains(w), "'\(e)' should say \(w)") }
            }
        }
    }
}
