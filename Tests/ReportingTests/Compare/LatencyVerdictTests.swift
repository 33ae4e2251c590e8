import XCTest
@testable import Reporting

/// Latency and throughput: flagged only past both tolerances, and with 3+ runs a side only past noise.
final class LatencyVerdictTests: XCTestCase {
    func judge(_ a: [Double], _ b: [Double], lowerIsBetter: Bool = true, relative: Double = 0.10, floor: Double = 1) -> ComparisonReport.Row {
        LatencyVerdict.judge(metric: "m", kind: .latency, unit: "ms", baselineRuns: a, newRuns: b, lowerIsBetter: lowerIsBetter,
                             relative: relative, floor: floor)
    }

    func testTolerancesOnOneRunPerSide() {
        let table: [(name: String, a: Double, b: Double, lowerIsBetter: Bool, verdict: ComparisonReport.Row.Verdict, note: String?)] = [
            ("past the relative but below the absolute floor", 2, 2.6, true, .withinTolerance, "past 10% but not past the 1 ms floor"),
            ("past the floor but below the relative", 100, 105, true, .withinTolerance, "past the 1 ms floor but not past 10%"),
            ("below both", 100, 100.5, true, .withinTolerance, "within 10% and the 1 ms floor"),
            ("past both, worse", 100, 130, true, .regression, "single run per side: tolerances only"),
            ("past both, better", 100, 70, true, .improvement, "single run per side: tolerances only"),
            ("unchanged", 40, 40, true, .unchanged, nil),
            ("throughput down past both", 1000, 850, false, .regression, "single run per side: tolerances only"),
            ("throughput up past both", 1000, 1200, false, .improvement, "single run per side: tolerances only"),
            ("from zero", 0, 5, true, .regression, "single run per side: tolerances only"),
        ]
        for c in table {
            let row = judge([c.a], [c.b], lowerIsBetter: c.lowerIsBetter)
            XCTAssertEqual(row.verdict, c.verdict, c.name)
            XCTAssertEqual(row.note, c.note, c.name)
            XCTAssertEqual(row.change, c.b - c.a, c.name)
        }
    }

    func testWithThreeRunsASideNoiseDecides() {
        let shifted = judge([40, 41, 42], [53, 54, 55])
        XCTAssertEqual(shifted.verdict, .regression)
        XCTAssertNotNil(shifted.interval)
        XCTAssertTrue(shifted.note?.hasPrefix("95% CI [+") ?? false, shifted.note ?? "")

        // The medians differ by 30 % but one run of each side overlaps the other side: within noise.
        let noisy = judge([40, 41, 60], [52, 38, 53])
        XCTAssertEqual(noisy.baseline, 41)
        XCTAssertEqual(noisy.new, 52)
        XCTAssertEqual(noisy.verdict, .withinNoise)
        XCTAssertTrue(noisy.note?.hasSuffix("includes 0") ?? false, noisy.note ?? "")

        // Past noise but not past the tolerances: within tolerance, whatever the interval says.
        XCTAssertEqual(judge([40, 40.1, 40.2], [40.5, 40.6, 40.7]).verdict, .withinTolerance)
    }

    func testTwoRunsASideUseTolerancesOnTheMedians() {
        let row = judge([40, 42], [60, 62])
        XCTAssertEqual(row.verdict, .regression)
        XCTAssertEqual(row.note, "tolerances only")
        XCTAssertNil(row.interval)
        XCTAssertEqual(LatencyVerdict.method(baselineRuns: 2, newRuns: 5, tolerances: .init()),
                       "2 baseline and 5 new runs (fewer than 3 on a side): tolerances only, on each side's median")
        XCTAssertEqual(LatencyVerdict.method(baselineRuns: 1, newRuns: 1, tolerances: .init()), "single run per side: tolerances only")
    }

    func testEveryPercentileOfResponseAndServiceTimeOverallAndPerPriority() {
        let r = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run { CompareFixtures.scaleLatency(&$0, by: 1.0) }])
        let latency = r.rows.filter { $0.kind == .latency }.map(\.metric)
        for time in ["response time", "service time"] {
            for p in ["p50", "p90", "p99", "p99.9"] {
                for view in ["", " (priority 10)", " (priority 5)"] {
                    XCTAssertTrue(latency.contains("\(time) \(p)\(view)"), "\(time) \(p)\(view) in \(latency)")
                }
            }
        }
        XCTAssertEqual(latency.count, 2 * 4 * 3)
        XCTAssertNotNil(r.row("throughput"))
    }

    func testAPlantedLatencyRegressionIsFlaggedOnThePercentilesItMoves() {
        // The fixture's latencies are a few ms; +30 % on a 0.5 ms floor passes both tolerances where they are above 1.7 ms.
        var options = Comparison.Options()
        options.tolerances.latencyFloorMillis = 0.5
        let many = { (r: inout RunReport) in CompareFixtures.setSamples(&r, to: 20_000) }
        let r = CompareFixtures.compare([CompareFixtures.run { many(&$0) }], [CompareFixtures.run { many(&$0); CompareFixtures.scaleLatency(&$0, by: 1.3) }],
            options: options)
        XCTAssertEqual(r.verdict, .regression)
        XCTAssertEqual(r.row("service time p99")?.verdict, .regression)
        XCTAssertEqual(r.row("service time p50")?.baseline ?? 0, 6, accuracy: 0.01)   // 2, 4, 6, 8, 10 ms delivered
        XCTAssertEqual(r.row("service time p50")?.verdict, .regression)
        XCTAssertEqual(r.row("delivered")?.verdict, .unchanged)
    }

    /// A percentile with fewer than 10 samples beyond it in a run is "too few samples", never a finding, and
    /// says so; with enough the same change is a regression. Every latency row carries both sides' samples.
    func testAPercentileWithTooFewSamplesBeyondItIsNeverARegression() {
        var options = Comparison.Options()
        options.tolerances.latencyFloorMillis = 0.5
        func compare(samples: Int) -> ComparisonReport {
            CompareFixtures.compare([CompareFixtures.run { CompareFixtures.setSamples(&$0, to: samples) }],
                                    [CompareFixtures.run { CompareFixtures.setSamples(&$0, to: samples); CompareFixtures.scaleLatency(&$0, by: 1.3) }],
                                    options: options)
        }
        let few = compare(samples: 9_999)
        XCTAssertEqual(few.row("service time p99.9")?.verdict, .tooFewSamples)
        XCTAssertEqual(few.row("service time p99.9")?.note, "9 samples beyond p99.9 in the smallest run (of 9999); at least 10 are needed")
        XCTAssertEqual(few.row("service time p99")?.verdict, .regression, "99 beyond p99: enough")
        XCTAssertEqual(few.row("service time p99.9")?.baselineSamples, 9_999)
        XCTAssertEqual(few.row("service time p99.9")?.newSamples, 9_999)
        let enough = compare(samples: 10_000)
        XCTAssertEqual(enough.row("service time p99.9")?.verdict, .regression)
        let fixture = compare(samples: 5)
        XCTAssertEqual(fixture.verdict, .noRegression, "5 samples: no percentile's change is a finding")
        XCTAssertTrue(fixture.rows.filter { $0.kind == .latency }.allSatisfy { $0.verdict == .tooFewSamples || $0.verdict == .withinTolerance })
    }

    /// Reports of `simulate --report` on both sides: timing shown, not judged, with fewer than 3 runs a side.
    func testASendersTimingIsJudgedOnlyWithThreeRunsASide() {
        let received = RunReport.Received(requests: [], providerTokens: .init(verified: 1, tooManyUpdates: 0, expired: 0, invalidOrMissing: 0),
                                          connections: .init(opened: 1, closed: 1, requestsPerConnection: [5]), liveActivityBudget: nil)
        let sender = { (r: inout RunReport) in r.received = received; CompareFixtures.setSamples(&r, to: 100_000) }
        let slower = { (r: inout RunReport) in sender(&r); CompareFixtures.scaleLatency(&r, by: 2); r.throughput.pushesPerSecond /= 2 }
        let one = CompareFixtures.compare([CompareFixtures.run { sender(&$0) }], [CompareFixtures.run { slower(&$0) }])
        XCTAssertEqual(one.verdict, .noRegression)
        XCTAssertEqual(one.row("throughput")?.verdict, .notJudged)
        XCTAssertEqual(one.row("service time p50")?.verdict, .notJudged)
        let three = CompareFixtures.compare((1...3).map { CompareFixtures.run("b\($0)") { sender(&$0) } },
            (1...3).map { CompareFixtures.run("n\($0)") { slower(&$0) } })
        XCTAssertNotEqual(three.row("throughput")?.verdict, .notJudged)
    }
}
