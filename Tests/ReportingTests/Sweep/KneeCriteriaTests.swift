import Reporting
import XCTest

/// The knee criteria on synthetic steps, and the rate search on a synthetic target.
final class KneeCriteriaTests: XCTestCase {
    let criteria = KneeCriteria(sloP99Millis: 500, minDelivered: 0.99)
    let first: SweepStep = {
        var s = SweepStep(offeredRate: 100, achievedRate: 100, p99Millis: 20, deliveredShare: 1, overloadReasons: ["ServiceUnavailable"])
        s.overloadShares = ["ServiceUnavailable": 0.007]
        s.requests = 150
        return s
    }()

    func step(_ offered: Double = 1000, sent: Double = 1000, p99: Double = 50, delivered: Double = 1, reasons: [String] = [],
              intervals: [Double] = [40, 42, 41, 43, 40, 44], windowFilled: Bool = false) -> SweepStep {
        var s = SweepStep(offeredRate: offered, achievedRate: sent, p99Millis: p99, deliveredShare: delivered,
                          overloadReasons: reasons, intervalP99Millis: intervals, processCPU: 0.97)
        s.window = 200
        s.windowFilled = windowFilled
        return s
    }

    /// A share just under its threshold prints under it: rounded down, never "99.0% < 99%".
    func testASharePrintedUnderItsThresholdIsUnderIt() {
        XCTAssertEqual(criteria.failures(of: step(288, sent: 285), first: first),
                       ["sent 285/s of 288/s sendable (98.9% < 99%), cause unknown: no thread near a full core and the window never full (process 97%)"])
        XCTAssertEqual(criteria.failures(of: step(delivered: 0.98996), first: first), ["delivered 98.99% under the SLO's 99.00%"])
        XCTAssertEqual(KneeCriteria.floored(90, places: 1), "90.0")
    }

    func testEachCriterionFailsAloneAndNamesItself() {
        let table: [(String, SweepStep, String?)] = [
            ("all hold", step(), nil),
            ("sent 99% exactly", step(sent: 990), nil),
            ("short, no thread busy: cause unknown", step(sent: 900), "sent 900/s of 1000/s sendable (90.0% < 99%), cause unknown"),
            ("engine thread saturated", { var s = step(sent: 900); s.engineCPU = 0.98; return s }(),
             "client saturated: sent 900/s of 1000/s sendable (90.0% < 99%); engine thread 98% of a core"),
            ("engine at 17%: not saturated", { var s = step(sent: 960); s.engineCPU = 0.17; s.processCPU = 0.28; return s }(), "cause unknown"),
            ("producer busy", { var s = step(sent: 900); s.engineCPU = 0.3; s.producerCPU = 0.9; return s }(),
             "client saturated, the producer fell behind"),
            ("producer late", { var s = step(sent: 900); s.engineCPU = 0.3; s.producerCPU = 0.2; s.producerLateShare = 0.05; return s }(),
             "5.0% of pushes handed over late"),
            ("window full", step(sent: 900, windowFilled: true), "the in-flight window (200) was full"),
            ("a saturated engine explains a full window", { var s = step(sent: 900, windowFilled: true); s.engineCPU = 0.99; return s }(),
             "client saturated: sent 900/s of 1000/s sendable (90.0% < 99%); engine thread 99% of a core"),
            ("a full window with the engine idle is the target's", { var s = step(sent: 900, windowFilled: true); s.engineCPU = 0.3; return s }(),
             "the in-flight window (200) was full"),
            ("p99 over", step(p99: 501), "p99 501.0 ms over the SLO's 500 ms"),
            ("p99 at the SLO", step(p99: 500), nil),
            ("delivered short", step(delivered: 0.98), "delivered 98.00% under the SLO's 99.00%"),
            ("a new 429", step(reasons: ["TooManyRequests"]), "new overload answers: TooManyRequests"),
            ("a 503 the first step had", step(reasons: ["ServiceUnavailable"]), nil),
            ("a random 0.4% of 503s the first step happened not to get",
                { var s = step(reasons: ["InternalServerError"]); s.overloadShares = ["InternalServerError": 0.004]; return s }(), nil),
            ("2% of 503s seen as 0.7% of 150 and 1.8% of 1,500 requests: chance",
                { var s = step(reasons: ["ServiceUnavailable"]); s.overloadShares = ["ServiceUnavailable": 0.018]; s.requests = 1500; return s }(), nil),
            ("shedding: 503s rose by 20 points", { var s = step(reasons: ["ServiceUnavailable"]); s.overloadShares = ["ServiceUnavailable": 0.21]; return s }(),
             "new overload answers: ServiceUnavailable"),
            ("rising", step(intervals: [10, 11, 12, 30, 40, 50]), "p99 rising within the step: 10.5 ms early, 45.0 ms late"),
            ("a heavy tail's p99 jumps, its p50 stays: no trend",
                { var s = step(intervals: [480, 900, 1180, 700, 1400, 1500]); s.intervalP50Millis = [70, 72, 69, 71, 70, 73]; return s }(), nil),
            ("a growing queue lifts the p50",
                { var s = step(intervals: [30, 30, 40, 400, 500, 600]); s.intervalP50Millis = [20, 25, 30, 300, 400, 500]; return s }(),
             "p50 rising within the step: 22.5 ms early, 450.0 ms late"),
            ("a sub-millisecond p99 quadrupling is noise", step(intervals: [0.4, 0.4, 0.5, 1.5, 1.6, 1.7]), nil),
            ("noisy but flat", step(intervals: [10, 19, 12, 18, 11, 19]), nil),
            ("too few intervals to judge a trend", step(intervals: [10, 100]), nil),
        ]
        for (name, s, expected) in table {
            let failures = criteria.failures(of: s, first: first)
            if let expected {
                XCTAssertEqual(failures.count, 1, "\(name): \(failures)")
                XCTAssertTrue(failures.first?.contains(expected) == true, "\(name): \(failures)")
            } else {
                XCTAssertEqual(failures, [], name)
            }
        }
        var ended = step(sent: 500)
        ended.streamEnded = true
        ended.engineCPU = 0.99
        XCTAssertEqual(criteria.failures(of: ended, first: first).count, 1, "a step whose recording ran out is judged on that alone")
        XCTAssertNil(criteria.shortfall(of: ended), "a recording that ran out is no one's shortfall")
    }

    func testTheShortfallNamesTheClientOnlyWithEvidence() {
        func shortfall(_ edit: (inout SweepStep) -> Void) -> KneeCriteria.Shortfall? {
            var s = step(sent: 900)
            s.processCPU = nil
            edit(&s)
            return criteria.shortfall(of: s)
        }
        XCTAssertNil(shortfall { $0.achievedRate = 995 }, "kept up")
        XCTAssertEqual(shortfall { _ in }, .unknown)
        XCTAssertEqual(shortfall { $0.processCPU = 0.99 }, .unknown, "the whole process (the embedded simulator too) is no evidence")
        XCTAssertEqual(shortfall { $0.engineCPU = 0.84 }, .unknown)
        XCTAssertEqual(shortfall { $0.engineCPU = 0.85 }, .engineSaturated)
        XCTAssertEqual(shortfall { $0.producerCPU = 0.9 }, .producerBehind)
        XCTAssertEqual(shortfall { $0.producerLateShare = 0.009 }, .unknown)
        XCTAssertEqual(shortfall { $0.producerLateShare = 0.01 }, .producerBehind)
        XCTAssertEqual(shortfall { $0.windowFilled = true; $0.engineCPU = 0.99 }, .engineSaturated)
        XCTAssertEqual(shortfall { $0.windowFilled = true; $0.engineCPU = 0.5 }, .targetWindow)
    }

    /// Runs a search against a target that passes every rate up to `knee`.
    func search(_ mode: RateSearch.Mode, low: Double, high: Double, knee: Double) -> (tried: [Double], best: Double?) {
        var s = RateSearch(low: low, high: high, mode: mode)
        var tried: [Double] = []
        while let r = s.next() {
            XCTAssertTrue((low...high).contains(r), "\(r) outside \(low)...\(high)")
            XCTAssertFalse(tried.contains(r), "\(r) twice")
            tried.append(r)
            s.record(r, passed: r <= knee)
            if tried.count > 100 { XCTFail("does not converge"); break }
        }
        return (tried, s.bestPass)
    }

    func testTheSearchConvergesWithin5PercentAndRespectsTheBounds() {
        for (mode, low, high, knee) in [(RateSearch.Mode.exponential, 500.0, 100_000.0, 4000.0), (.exponential, 500, 100_000, 37_123),
                                        (.binary, 500, 100_000, 4000), (.binary, 100, 1000, 999), (.exponential, 10, 1000, 10)] {
            let (tried, best) = search(mode, low: low, high: high, knee: knee)
            let found = try! XCTUnwrap(best, "\(mode) \(knee)")
            XCTAssertLessThanOrEqual(found, knee)
            XCTAssertGreaterThanOrEqual(found, knee * 0.95, "\(mode) knee \(knee): found \(found) after \(tried)")
            XCTAssertLessThan(tried.count, 20, "\(tried)")
        }
        // Everything passes: it stops at the high bound. Nothing passes: it stops after the low bound.
        XCTAssertEqual(search(.exponential, low: 100, high: 1000, knee: .infinity).best, 1000)
        XCTAssertEqual(search(.binary, low: 100, high: 1000, knee: .infinity).tried, [100, 1000])
        let none = search(.exponential, low: 100, high: 1000, knee: 50)
        XCTAssertEqual(none.tried, [100])
        XCTAssertNil(none.best)
        XCTAssertEqual(search(.steps(4), low: 100, high: 400, knee: 250).tried, [100, 200, 300, 400])
        XCTAssertNil(RateSearch.Mode(argument: "steps:1"))
        XCTAssertEqual(RateSearch.Mode(argument: "steps:5"), .steps(5))
    }
}
