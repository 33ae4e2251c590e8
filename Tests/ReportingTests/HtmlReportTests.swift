import APNsCore
import Foundation
import Histogram
@testable import Reporting
import XCTest

/// `report.html` rendered from reports: sections, headline, escaping, redaction, empty charts, size.
final class HtmlReportTests: XCTestCase {
    /// The mixed fixture with everything optional filled in: coalescing, the Live Activity budget, per-interval
    /// connection events, a configuration whose strings need escaping and carry a token and a JWT.
    func richReport() -> RunReport {
        var report = Fixtures.report(from: Fixtures.mixedRecorder(),
                                     simulator: ["accepted": 5, "rejected": 4, "liveactivity_budget_overruns": 3])
        report.configuration.description = "stores <b>5 & 7</b> say \"late\" for \(Fixtures.deviceToken) with eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJUIn0.c2ln"
        report.configuration.payload.collapseID = "a<&\"b"
        report.configuration.coalescing.window = .milliseconds(250)
        report.liveActivityBudget = .init(priority10PerHour: 10, windowSeconds: 3600, priority10Updates: 40, throttled: 7, activitiesThrottled: 2)
        report.stopReason = "SIGINT received; in-flight pushes drained for up to 5 s"
        report.broadcast = .init(channels: 40, storesRefused: 2, deleted: 40, kept: false,
                                 managementCalls: ["create 201": 40, "create CannotCreateChannelConfig": 1, "delete 204": 40], followersNotSubscribed: 17)
        report.engine.devicesReached = 812
        report.configuration.workload.activityModel = .init(path: "profiles/models/<A>.swift", sha256: "8963")
        report.pushes.wouldNotDecode = .init(total: 3, byField: ["content-state.responseTime: badDate": 3], checked: 9, failedCheck: 4, notChecked: 1,
                                             samples: [.init(token: "80b3…(64)", event: "update",
                                                             failures: ["content-state.responseTime: badDate: found string \"<b>\""],
                                                             payload: "{\"token\":\"\(Fixtures.deviceToken)\",\"x\":\"<b>\"}")])
        report.coalescing = RunReport.Coalescing(windowMillis: 250, pushesSaved: 4,
                                                 staleness: LatencySummary(unit: "ms", count: 9, min: 1, p50: 20, p90: 120, p99: 240, p999: 250,
                                                                           max: 250, mean: 48))
        for i in report.timeline.indices {
            report.timeline[i].connectionsOpen = 2
            report.timeline[i].goAways = i == 1 ? 1 : 0
            report.timeline[i].reconnects = i == 1 ? 1 : 0
            report.timeline[i].tokenSignings = i == 0 ? 1 : 0
        }
        return report
    }

    func testEverySectionOfARichReportIsThere() throws {
        let html = renderHTML(richReport())
        for id in HtmlReport.sectionIDs + HtmlReport.optionalSectionIDs {
            XCTAssertTrue(html.contains("id=\"\(id)\""), "section \(id)")
        }
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("data-points=\""), "charts drawn")
        XCTAssertFalse(html.contains("data-points=\"0\""))
        XCTAssertTrue(html.contains("m-goaway") && html.contains("m-reconnect") && html.contains("m-resign"), "connection events marked")
        XCTAssertTrue(html.contains("HTTP/2 connections open"))
        XCTAssertTrue(html.contains("812 devices reached by"), "the broadcast section says how many devices the broadcasts reached")
        XCTAssertTrue(html.contains("create CannotCreateChannelConfig: 1"))
        for reason in ["BadDeviceToken", "TooManyRequests", "HTTP502", "curl_7_couldnt_connect", "curl_56_recv_error", "no_token", "run_stopped"] {
            XCTAssertTrue(html.contains(reason), reason)
        }
        XCTAssertTrue(html.contains("The simulator counted 3 pushes over the budget on its own wall clock"))
        XCTAssertTrue(html.contains("7 of 40 priority-10 updates would be throttled on the device</strong>, for 2 activities"))
        XCTAssertTrue(html.contains("Stopped early: SIGINT received"))
        XCTAssertTrue(html.contains("4 pushes saved"))
        XCTAssertTrue(html.contains("<strong>3 of 5 delivered pushes would not decode on the device</strong>"))
        XCTAssertTrue(html.contains("found string &quot;&lt;b&gt;&quot;"), "a sample's failure, escaped")
        XCTAssertFalse(html.contains(Fixtures.deviceToken), "a sample's payload is redacted")
    }

    func testThePageFetchesNothing() {
        let html = renderHTML(richReport())
        XCTAssertTrue(html.contains("default-src 'none'"), "a CSP forbids every fetch")
        for needle in ["http://", "https://", "src=", "@import", "url("] {
            XCTAssertFalse(html.contains(needle), needle)
        }
    }

    func testHeadlineShowsMissedSLO() throws {
        var report = richReport()
        report.configuration.slo.p99 = .milliseconds(1)
        report.configuration.slo.minDelivered = 0.1
        let html = renderHTML(report)
        let headline = try XCTUnwrap(html.range(of: "<header id=\"headline\"").map { String(html[$0.lowerBound...].prefix(3_000)) })
        XCTAssertTrue(headline.contains("class=\"bad\""))
        XCTAssertTrue(headline.contains("✗ SLO missed"))
        XCTAssertTrue(headline.contains("<li class=\"missed\">✗ p99 response time"))
        XCTAssertTrue(headline.contains("<li class=\"met\">✓ delivered share"))
        XCTAssertTrue(headline.contains("pushes/s"))
        XCTAssertTrue(headline.contains("p99 response time"))

        report.configuration.slo.p99 = .milliseconds(60_000)
        let met = renderHTML(report)
        XCTAssertTrue(met.contains("✓ SLO met"))
        XCTAssertFalse(met.contains("✗"))
    }

    func testConfigurationStringsAreEscaped() {
        let html = renderHTML(richReport())
        XCTAssertTrue(html.contains("a&lt;&amp;&quot;b"), "collapse id escaped")
        XCTAssertFalse(html.contains("a<&\"b"))
        XCTAssertTrue(html.contains("stores &lt;b&gt;5 &amp; 7&lt;/b&gt; say &quot;late&quot;"))
        XCTAssertFalse(html.contains("<b>5"))
    }

    func testNoDeviceTokenOrJWTAppears() throws {
        let html = renderHTML(richReport())
        XCTAssertFalse(html.contains(Fixtures.deviceToken))
        XCTAssertNil(html.range(of: "[0-9a-fA-F]{64}", options: .regularExpression), "no 64-hex run")
        XCTAssertFalse(html.contains("eyJ"), "no JWT-looking text")
        XCTAssertTrue(html.contains("&lt;token&gt;"), "the token's place is marked")
    }

    func testEmptyRunSaysSoInsteadOfDrawing() {
        let report = Fixtures.report(from: { let r = RunRecorder(); r.start(atNanos: Fixtures.t0); return r }())
        let html = renderHTML(report)
        for id in HtmlReport.sectionIDs { XCTAssertTrue(html.contains("id=\"\(id)\""), id) }
        XCTAssertFalse(html.contains("<svg"), "no chart without data")
        XCTAssertTrue(html.contains("no deliveries in this run"))
        XCTAssertTrue(html.contains("no pushes were sent in this run"))
    }

    func testReportWithoutEncodedHistogramsDrawsTheLadder() throws {
        var report = richReport()
        report.latency.histograms = nil
        for i in report.timeline.indices { report.timeline[i].responseTime = nil }
        let html = renderHTML(report)
        XCTAssertTrue(html.contains("drawn from its percentile ladder"))
        XCTAssertTrue(html.contains("data-points=\"6\""), "p90, p99, p99.9 of response and service time")
        XCTAssertTrue(html.contains("no per-interval latency histograms in this report"))
        XCTAssertFalse(html.contains("data-points=\"0\""))
    }

    func testSpectrumComesFromTheEncodedHistogram() throws {
        var h = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        for v in 1...10_000 { h.record(UInt64(v) * 100) }
        let points = HtmlReport.spectrum(encoded: EncodedHistogram.encode(h), summary: .empty)
        XCTAssertEqual(points.count, HtmlReport.spectrumPercentiles.count)
        XCTAssertEqual(points.first?.x ?? 0, 90, accuracy: 1e-9)
        XCTAssertEqual(points.last?.x ?? 0, 99.999, accuracy: 1e-9)
        XCTAssertEqual(points.first?.y ?? 0, Double(h.valueAtPercentile(90)) / 1000, accuracy: 1e-9)
        XCTAssertEqual(points.map(\.y), points.map(\.y).sorted(), "a spectrum never falls")
    }

    /// A one-hour run (3600 one-second intervals, each with its histogram and connection events) stays under 2 MB,
    /// and every series is downsampled to the cap.
    func testOneHourTimelineIsDownsampledUnderTwoMegabytes() throws {
        var report = richReport()
        var encoded: [String] = []
        for k in 0..<8 {
            var h = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
            for v in 0..<300 { h.record(UInt64(20_000 + (v * 997 + k * 331) % 180_000)) }
            encoded.append(EncodedHistogram.encode(h))
        }
        report.timeline = (0..<3_600).map { s in
            RunReport.TimelineEntry(second: s, sent: 300 + s % 17, completed: 300, delivered: 290, errors: 10, rejected: 6, failed: 3, timedOut: 1,
                                    inFlight: 40 + s % 23, responseTime: encoded[s % encoded.count],
                                    connectionsOpen: 4, goAways: s % 600 == 599 ? 1 : 0, reconnects: s % 600 == 0 ? 1 : 0, tokenSignings: s % 3000 == 0 ? 1 : 0)
        }
        let html = renderHTML(report)
        XCTAssertLessThan(html.utf8.count, 2_000_000)
        let counts = html.components(separatedBy: "data-points=\"").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        XCTAssertFalse(counts.isEmpty)
        for n in counts { XCTAssertGreaterThan(n, 0) }
        // Throughput: 4 layers + the sent line, each capped.
        XCTAssertTrue(counts.contains(5 * HtmlReport.maxPointsPerSeries), "\(counts)")
        XCTAssertTrue(counts.contains(2 * HtmlReport.maxPointsPerSeries), "p50 and p99 capped: \(counts)")
        XCTAssertTrue(html.contains("3600 intervals"))
    }

    func testTimelineIntervalScalesTheAxisAndRates() {
        var report = richReport()
        report.configuration.reportInterval = .seconds(10)
        let html = renderHTML(report)
        XCTAssertTrue(html.contains("seconds since start (10 s intervals)"))
    }

    func testFlattenWalksNestedValues() {
        let rows = Dictionary(uniqueKeysWithValues: HtmlReport.flatten(Fixtures.configuration))
        XCTAssertEqual(rows["transport.connections"], "2")
        XCTAssertEqual(rows["workload.name"], "leave-requests")
        XCTAssertEqual(rows["payload.expirationSeconds"], "3600")
        XCTAssertEqual(rows["auth.tokenRefreshMinutes"], "50")
    }
}

/// The renderer's percentiles, read from the encoded counts, equal hdrhistogram-swift's `valueAtPercentile`.
final class EncodedPercentilesTests: XCTestCase {
    func testEqualsValueAtPercentileOfTheDecodedHistogram() throws {
        var rng = SystemRandomNumberGenerator()
        let percentiles = HtmlReport.spectrumPercentiles + [0, 1, 25, 50, 75, 99, 99.9, 100]
        for size in [1, 2, 7, 100, 10_000] {
            var h = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
            for _ in 0..<size { h.record(UInt64.random(in: 1...5_000_000, using: &rng)) }
            let encoded = EncodedHistogram.encode(h)
            let decoded = try EncodedHistogram.decode(encoded)
            let values = try XCTUnwrap(EncodedPercentiles.values(encoded, at: percentiles))
            for (p, v) in zip(percentiles, values) where p > 0 {
                XCTAssertEqual(v, decoded.valueAtPercentile(p), "p\(p) of \(size) values")
            }
        }
        let empty = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        XCTAssertNil(EncodedPercentiles.values(EncodedHistogram.encode(empty), at: [50]))
        XCTAssertNil(EncodedPercentiles.values("not base64!", at: [50]))
    }
}
