import APNsCore
import Foundation
import Histogram
import Reporting
import TestSupport
import XCTest

/// Our HdrHistogram encodings, read by an implementation nobody here wrote: the PyPI package
/// hdrhistogram (scripts/install-deps.sh --test installs it). hdrh_check.py decodes every encoded
/// histogram of a written report.json and every line of its latency.hlog; the counts must be the
/// report's and the percentiles the report's, within the histogram's precision (the same bucket).
final class HdrHistogramInteropTests: XCTestCase {
    /// The 3-significant-digit, 1 µs … 1 h layout of the report's histograms, for bucket equivalence.
    let reference = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)

    func testPythonHdrhistogramReadsOurEncodingsAndLatencyLog() throws {
        let python = try requireTool("python3", package: "python3")
        let probe = try runChild(python, ["-c", "import hdrh"])
        guard probe.status == 0 else {
            throw InteropError("the Python package hdrhistogram is not installed (\(probe.output.split(separator: "\n").last ?? "")): "
                + "run scripts/install-deps.sh --test")
        }
        let directory = try ScratchFolder.make("hdrh-interop", removedBy: addTeardownBlock).path
        let report = Self.makeReport()
        _ = try ReportWriter.write(report, to: directory)

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("hdrh_check.py").path
        let (status, output) = try runChild(python, [script, directory])
        XCTAssertEqual(status, 0, output)
        let line = try XCTUnwrap(output.split(separator: "\n").last { $0.hasPrefix("{") }, output)
        let found = try JSONDecoder().decode(Found.self, from: Data(line.utf8))

        // Every encoded histogram in report.json.
        let latency = report.latency
        var expected: [String: LatencySummary] = [
            "overall.serviceTime": latency.serviceTime, "overall.responseTime": latency.responseTime,
        ]
        for (group, views) in [("byPriority", latency.byPriority), ("byPushType", latency.byPushType ?? [:]), ("byOutcome", latency.byOutcome ?? [:])] {
            for (key, pair) in views {
                expected["\(group).\(key).serviceTime"] = pair.serviceTime
                expected["\(group).\(key).responseTime"] = pair.responseTime
            }
        }
        XCTAssertEqual(Set(found.encoded.keys), Set(expected.keys))
        XCTAssertEqual(expected.count, 2 * (1 + 2 + 1 + 3), "overall, priorities 5 and 10, one push type, three outcome classes")
        for (name, summary) in expected {
            try check(found.encoded[name], summary, name)
        }

        // latency.hlog: the whole-run tags, and the per-second lines added up.
        try check(found.hlog["response"], latency.responseTime, "hlog response")
        try check(found.hlog["service"], latency.serviceTime, "hlog service")
        try check(found.hlog["response.priority10"], latency.byPriority["10"]?.responseTime, "hlog response.priority10")
        try check(found.hlog["service.outcome.timedOut"], latency.byOutcome?["timedOut"]?.serviceTime, "hlog service.outcome.timedOut")
        try check(found.hlog[LatencyLog.intervalTag], latency.responseTime, "hlog \(LatencyLog.intervalTag), all seconds added")
        XCTAssertEqual(found.hlog.count, 2 * 7 + 1, "one tag per histogram")

        // Each second's histogram holds that second's deliveries.
        let delivered = report.timeline.filter { $0.delivered > 0 }
        XCTAssertEqual(found.timeline.map(\.second), delivered.map(\.second))
        XCTAssertEqual(found.timeline.map(\.count), delivered.map(\.delivered))
        XCTAssertGreaterThan(delivered.count, 3, "the run spans several seconds")
    }

    func check(_ stats: Stats?, _ summary: LatencySummary?, _ name: String) throws {
        let stats = try XCTUnwrap(stats, "hdrh found no \(name)")
        let summary = try XCTUnwrap(summary, "the report has no \(name)")
        XCTAssertEqual(stats.count, summary.count, "\(name) count")
        for (label, theirs, ours) in [("p50", stats.p50, summary.p50), ("p90", stats.p90, summary.p90), ("p99", stats.p99, summary.p99),
                                      ("p99.9", stats.p999, summary.p999), ("max", stats.max, summary.max)] {
            XCTAssertTrue(reference.valuesAreEquivalent(UInt64(theirs), UInt64(ours)),
                          "\(name) \(label): hdrh \(theirs) µs, report \(ours) µs, not in one bucket")
        }
    }

    /// 10 000 deliveries (6 000 at priority 10, 4 000 at 5) over 6 s with service times from 200 µs to
    /// ~2.6 s, 2 000 rejections and 1 000 timeouts. Counts are multiples of 1 000, so every percentile's
    /// rank is a whole number and both libraries' rounding of it agree.
    /// - Parameter unavailable: how many of the first delivered pushes APNs answered 503 instead.
    static func makeReport(unavailable: Int = 0) -> RunReport {
        let recorder = RunRecorder()
        let t0: UInt64 = 7_000_000_000_000
        recorder.start(atNanos: t0)
        var rng = SplitMix64(seed: 42)
        var pushes: [(outcome: Outcome, priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64)] = []
        func send(_ outcome: Outcome, _ priority: Priority, at i: Int, of n: Int) {
            let sent = t0 + UInt64(i) * 6_000_000_000 / UInt64(n)
            let service = UInt64(200_000 * pow(2, 13.7 * rng.unit() * rng.unit()))   // ns: 200 µs … ~2.6 s, most short
            let late = rng.next() % 4 == 0 ? UInt64(rng.next() % 50_000_000) : 0
            pushes.append((outcome, priority, sent - late, sent, sent + service))
        }
        for i in 0..<10_000 {
            send(i < unavailable ? .rejected(.serviceUnavailable) : .delivered, i % 5 < 3 ? .immediate : .powerAware, at: i, of: 10_000)
        }
        for i in 0..<2_000 { send(.rejected(.badDeviceToken), .immediate, at: i, of: 2_000) }
        for i in 0..<1_000 { send(.timedOut, .immediate, at: i, of: 1_000) }
        // An engine records each push as it completes.
        for p in pushes.sorted(by: { $0.completed < $1.completed }) {
            recorder.record(p.outcome, priority: p.priority, intended: p.intended, sent: p.sent, completed: p.completed)
        }

        var events = EventTally()
        events.record(kind: "interop", .producedPushes(recorder.planned))
        var workload = RunConfig.Workload(name: "interop", stream: "s.ndjson", recipe: "r.yaml", bundleID: "com.example.app")
        workload.pushType = .alert
        var engine = EngineCounters()
        engine.sent = recorder.planned   // every push sent once
        return recorder.makeReport(
            configuration: RunConfig(name: "interop", profilePath: "p.yaml", workload: workload), events: events,
            environment: EnvironmentInfo(libcurl: "8", ssl: "ssl", nghttp2: "1", os: "test", cpuCount: 2, hostname: "h"),
            engine: engine, startedAt: Date(timeIntervalSince1970: 1_744_797_600), durationSeconds: 9)
    }

    struct Stats: Decodable {
        let count: Int
        let p50: Int
        let p90: Int
        let p99: Int
        let p999: Int
        let max: Int
    }

    struct Found: Decodable {
        struct Second: Decodable {
            let second: Int
            let count: Int
        }

        let encoded: [String: Stats]
        let hlog: [String: Stats]
        let timeline: [Second]
    }
}
