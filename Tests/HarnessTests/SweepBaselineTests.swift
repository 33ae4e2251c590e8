@testable import Harness
import Reporting
import XCTest

/// Which step later steps are judged against, when the first one ran on a disturbed host.
final class SweepBaselineTests: XCTestCase {
    private let busy = HostLoad(otherCores: 1.2, stealCores: 0, idleCores: 0.1, ownCores: 0.7)
    private let quiet = HostLoad(otherCores: 0, stealCores: 0, idleCores: 1.2, ownCores: 0.8)

    private func step(_ index: Int, rate: Double, serviceP50: Double, host: HostLoad?) -> RateSweep.Step {
        var s = SweepStep(offeredRate: rate, achievedRate: rate, p99Millis: serviceP50 * 2, deliveredShare: 1)
        s.scheduledRate = rate
        s.serviceP50Millis = serviceP50
        s.host = host
        return RateSweep.Step(index: index, directory: "step-\(index)", result: s, failures: [])
    }

    func testADisturbedFirstStepMeasuredAgainIsTheBaselineByItsReMeasurement() {
        let disturbed = step(1, rate: 1000, serviceP50: 560, host: busy)
        let again = step(2, rate: 1000, serviceP50: 27, host: quiet)
        // The re-measurement of the first rate is judged as the first step is: against nothing.
        XCTAssertNil(RateSweep.baseline([disturbed], judging: 1000))
        // Any other rate, before a quiet measurement of the first: the first step as measured.
        XCTAssertEqual(RateSweep.baseline([disturbed], judging: 2000)?.index, 1)
        // Once the first rate was measured on a quiet host, that measurement is the baseline for every later step.
        XCTAssertEqual(RateSweep.baseline([disturbed, again], judging: 2000)?.index, 2)
        XCTAssertEqual(RateSweep.baseline([disturbed, again, step(3, rate: 2000, serviceP50: 30, host: quiet)], judging: 4000)?.index, 2)
    }

    func testAQuietOrUnsampledFirstStepStaysTheBaseline() {
        let first = step(1, rate: 1000, serviceP50: 27, host: quiet)
        XCTAssertNil(RateSweep.baseline([], judging: 1000))
        XCTAssertEqual(RateSweep.baseline([first, step(2, rate: 2000, serviceP50: 28, host: busy)], judging: 4000)?.index, 1)
        // A first step without host figures (no /proc/stat) is not taken as disturbed.
        XCTAssertEqual(RateSweep.baseline([step(1, rate: 1000, serviceP50: 27, host: nil)], judging: 2000)?.index, 1)
    }
}

/// What a sweep concludes about its limiter: one verdict, never two that contradict each other.
final class SweepLimitLinesTests: XCTestCase {
    private let criteria = KneeCriteria(sloP99Millis: 1000, minDelivered: 0.99)

    private func first() -> SweepStep {
        var s = SweepStep(offeredRate: 500, achievedRate: 500, p99Millis: 60, deliveredShare: 1)
        s.scheduledRate = 500
        s.serviceP50Millis = 27
        s.serviceMeanMillis = 29
        s.requests = 1500
        return s
    }

    /// The step above the knee as the contradicting sweep measured it: the service time risen, the window full, no
    /// client thread near a core, the host short of CPU with the process at 1.05 cores of which the client's
    /// threads 0.47.
    private func busyFailure(rate: Double) -> SweepStep {
        var s = SweepStep(offeredRate: rate, achievedRate: rate - 10, p99Millis: 1542.1, deliveredShare: 1, processCPU: 1.05)
        s.scheduledRate = rate
        s.intervalP50Millis = [40, 45, 50, 300, 600, 900]
        s.window = 200
        s.windowFilled = true
        s.serviceP50Millis = 420
        s.serviceMeanMillis = 480
        s.engineCPU = 0.41
        s.producerCPU = 0.04
        s.requests = 9000
        s.host = HostLoad(otherCores: 0.38, stealCores: 0, idleCores: 0.46, ownCores: 1.05, clientCores: 0.47)
        return s
    }

    private func judged(_ s: SweepStep, index: Int, first f: SweepStep?, purpose: KneeVerdict.Measurement.Kind = .search) -> RateSweep.Step {
        var step = RateSweep.Step(index: index, directory: "step-\(index)", result: s, failures: criteria.failures(of: s, first: f),
                                  shortfall: criteria.shortfall(of: s), limiter: StepLimiter.classify(s, first: f, criteria: criteria))
        step.purpose = purpose
        return step
    }

    func testABusyHostAboveTheKneeIsUndecidedAndNeverTheClientBesideAClientThatKeptUp() {
        let f = first()
        var above = judged(busyFailure(rate: 3000), index: 2, first: f)
        above.remeasuredBy = 3
        let again = judged(busyFailure(rate: 3000), index: 3, first: f, purpose: .remeasure)
        let o = RateSweep.conclusion([judged(f, index: 1, first: nil), above, again], criteria: criteria)
        XCTAssertEqual(RateSweep.limitLines(o), [
            "**Undecided: the host was busy** (step 3 at 3000/s, the rate above the knee, measured again and still busy): client threads 0.47 cores, "
                + "the rest of the process (an embedded simulator) 0.58, other processes 0.38, steal 0.00, idle 0.46; " + StepLimiter.outOfProcess
                + "; on a quiet host the numbers would name: target (service time p50 420.0 ms, 15.6× the first step's 27.0 ms, "
                + "measured by a client short of CPU)",
            "Undecided, the host was busy, at step(s) 2 (measured again as step 3), 3: under half a core left idle, taken by other work or the in-process "
                + "simulator, not the client's threads",
            "Whether the client kept up is undecided at the busy step(s); no step's limiter was the client's CPU",
        ])
    }

    func testAClientCPULimiterIsTheClientsCeilingNotAClientThatKeptUp() {
        let f = first()
        var s = busyFailure(rate: 3000)
        s.host?.clientCores = 0.9
        let o = RateSweep.conclusion([judged(f, index: 1, first: nil), judged(s, index: 2, first: f)], criteria: criteria)
        XCTAssertEqual(o.steps[1].limiter?.kind, .clientCPU)
        XCTAssertEqual(RateSweep.limitLines(o).last, "Client ceiling: 2990 pushes/s, the most a step sent whose limiter was the client's CPU")
        XCTAssertFalse(RateSweep.limitLines(o).contains { $0.contains("kept up at every step") })
    }

    func testASweepDecidedOnAQuietHostSaysTheClientKeptUp() {
        let f = first()
        var s = busyFailure(rate: 3000)
        s.host?.idleCores = 0.9
        let o = RateSweep.conclusion([judged(f, index: 1, first: nil), judged(s, index: 2, first: f)], criteria: criteria)
        XCTAssertEqual(RateSweep.limitLines(o), [
            "Limited by the **target** (step 2 at 3000/s): service time p50 420.0 ms, 15.6× the first step's 27.0 ms",
            "The client kept up at every step (no step's limiter was the client's CPU)",
        ])
    }
}

/// sweep.html's point of a step: the same latencies as the step's verdict, sweep.md and sweep.json.
final class SweepPointTests: XCTestCase {
    func testThePointCarriesTheStepsOwnLatencies() {
        var s = SweepStep(offeredRate: 300, achievedRate: 299, p99Millis: 1542.1, deliveredShare: 1)
        s.p50Millis = 120.5
        s.p999Millis = 1800
        let step = RateSweep.Step(index: 3, directory: "step-03", result: s, failures: ["p99 1542.1 ms over the SLO's 1000 ms"])
        let p = RateSweep.point(step)
        XCTAssertEqual([p.p50Millis, p.p99Millis, p.p999Millis], [120.5, 1542.1, 1800])
        XCTAssertEqual(p.verdict, "fail: p99 1542.1 ms over the SLO's 1000 ms")
    }
}
