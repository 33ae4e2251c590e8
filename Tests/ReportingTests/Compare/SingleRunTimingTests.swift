import APNsCore
import XCTest
@testable import Reporting

/// `--timing-min-runs N`: with fewer runs a side, latency and throughput are shown, not judged; counts still are.
final class SingleRunTimingTests: XCTestCase {
    func testSingleRunsTimingIsShownNotJudgedAndTheirCountsStillAre() {
        var options = Comparison.Options()
        options.timingMinimumRuns = 3
        let slower = CompareFixtures.run("b/report.json") { r in
            CompareFixtures.setSamples(&r, to: 100_000)
            CompareFixtures.scaleLatency(&r, by: 2)
            r.pushes.rejected["ServiceUnavailable"] = .init(status: 503, count: 1)
        }
        let base = CompareFixtures.run("a/report.json") { CompareFixtures.setSamples(&$0, to: 100_000) }
        let r = CompareFixtures.compare([base], [slower], options: options)
        XCTAssertEqual(r.method.latency, "fewer than 3 runs on a side (--timing-min-runs 3): shown, not judged")
        let p50 = r.row("response time p50")
        XCTAssertEqual(p50?.verdict, .notJudged)
        XCTAssertEqual(p50?.note, "timing is judged with 3+ runs a side (--timing-min-runs)")
        XCTAssertEqual(r.row("rejected ServiceUnavailable")?.verdict, .regression)
        XCTAssertEqual(r.verdict, .regression)
        // Without the option the same pair's latency is judged by the tolerances.
        XCTAssertEqual(CompareFixtures.compare([base], [slower]).row("response time p50")?.verdict, .regression)
    }
}
