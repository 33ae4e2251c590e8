import Reporting
import XCTest

/// The limiter of a failing step, named from its own numbers, on synthetic steps of each kind.
final class StepLimiterTests: XCTestCase {
    let criteria = KneeCriteria(sloP99Millis: 1000, minDelivered: 0.99)
    /// The sweep's first step: 500/s, service time 27 ms, nothing busy.
    let first: SweepStep = {
        var s = SweepStep(offeredRate: 500, achievedRate: 500, p99Millis: 60, deliveredShare: 1)
        s.serviceP50Millis = 27
        s.serviceMeanMillis = 29
        s.requests = 1500
        return s
    }()

    /// A step at 8,000/s that sent 6,800/s, the 2 × 100 window full, service time flat, engine at 40%.
    func short() -> SweepStep {
        var s = SweepStep(offeredRate: 8000, achievedRate: 6800, p99Millis: 300, deliveredShare: 1)
        s.window = 200
        s.connections = 2
        s.streamsPerConnection = 100
        s.windowFilled = true
        s.serviceP50Millis = 28
        s.serviceMeanMillis = 29
        s.engineCPU = 0.4
        s.producerCPU = 0.2
        s.requests = 20_000
        return s
    }

    func kind(_ s: SweepStep) -> StepLimiter.Kind? { StepLimiter.classify(s, first: first, criteria: criteria)?.kind }

    func testAPassingStepHasNoLimiter() {
        XCTAssertNil(StepLimiter.classify(first, first: first, criteria: criteria))
    }

    func testAFullWindowWithFlatServiceTimeIsTheClientsWindowWithItsCeilingAndTheSetting() throws {
        let l = try XCTUnwrap(StepLimiter.classify(short(), first: first, criteria: criteria))
        XCTAssertEqual(l.kind, .clientWindow)
        // Little's law: 200 in flight ÷ 29 ms = 6,897/s.
        XCTAssertEqual(try XCTUnwrap(l.ceiling), 200 / 0.029, accuracy: 0.01)
        XCTAssertTrue(l.evidence.contains("2 connections × 100 streams") && l.evidence.contains("6897 pushes/s"), l.evidence)
        XCTAssertEqual(l.fix, "raise --streams (now 100) or --connections (now 2): the ceiling grows with the window")
    }

    func testAFullWindowWithServiceTimeRisingIsTheTarget() {
        var s = short()
        s.serviceP50Millis = 90
        s.serviceMeanMillis = 120
        XCTAssertEqual(kind(s), .target)
        XCTAssertTrue(StepLimiter.classify(s, first: first, criteria: criteria)!.evidence.contains("3.3× the first step's 27.0 ms"))
        // 1.5× is still flat.
        s.serviceP50Millis = 40
        XCTAssertEqual(kind(s), .clientWindow)
    }

    func testNewOverloadAnswersOrUndeliveredSendsAreTheTarget() {
        var s = short()
        s.windowFilled = false
        s.overloadReasons = ["TooManyRequests"]
        s.overloadShares = ["TooManyRequests": 0.2]
        XCTAssertEqual(kind(s), .target)
        var t = short()
        t.deliveredOfSent = 0.9
        XCTAssertEqual(kind(t), .target)
    }

    func testASaturatedEngineOrProducerIsTheClientsCPU() {
        var s = short()
        s.engineCPU = 0.93
        XCTAssertEqual(kind(s), .clientCPU)
        var p = short()
        p.producerCPU = 0.9
        XCTAssertEqual(kind(p), .clientCPU)
        var late = short()
        late.producerLateShare = 0.04
        XCTAssertEqual(kind(late), .clientWindow, "a full window holds the producer back: its lateness is the window's")
        late.windowFilled = false
        XCTAssertEqual(kind(late), .clientCPU)
    }

    /// A debug client at 1,438/s on 2 cores (a measured step): it kept up with the rate, but the p50 rose
    /// within the step; the engine thread at 69% of a core, the process at 1.63 cores with 0.36 left idle
    /// and no other work. The service time it measured rose 9.7×: a saturated client's measurement.
    func processTookTheHost() -> SweepStep {
        var s = SweepStep(offeredRate: 1425, achievedRate: 1424, p99Millis: 382, deliveredShare: 0.998, processCPU: 1.63)
        s.intervalP50Millis = [100, 101, 102, 200, 280, 281]
        s.window = 2000
        s.serviceP50Millis = 261.1
        s.serviceMeanMillis = 270
        s.engineCPU = 0.69
        s.producerCPU = 0.035
        s.producerLateShare = 0
        s.requests = 4300
        s.host = HostLoad(otherCores: 0, stealCores: 0, idleCores: 0.36, ownCores: 1.63)
        return s
    }

    func testAHostShortOfCPUWhoseClientThreadsTookItIsTheClientsCPUAndARisingServiceTimeIsNamedAsItsMeasurement() throws {
        var s = processTookTheHost()
        s.serviceP50Millis = 261.9
        s.host?.clientCores = 1.2
        let l = try XCTUnwrap(StepLimiter.classify(s, first: first, criteria: criteria))
        XCTAssertEqual(l.kind, .clientCPU, l.line)
        XCTAssertEqual(l.evidence, "the client's threads took the host's CPU (client threads 1.20 cores, the rest of the process (an embedded simulator) 0.43, "
                       + "other processes 0.00, steal 0.00, idle 0.36)"
                       + "; service time also rose 9.7× (p50 261.9 ms, first step 27.0 ms), measured by a saturated client")
        // With a core left idle the client had CPU to spare: the rise is the target's.
        s.host?.idleCores = 1.2
        XCTAssertEqual(kind(s), .target)
        // Without the host's load nothing says the client was short of CPU.
        s.host = nil
        XCTAssertEqual(kind(s), .target)
    }

    /// The measured step the process's CPU misnamed: 1.63 cores to the process, the engine thread at 69%. Without
    /// the client's own share (a step recorded before it), or with the in-process simulator taking most of it,
    /// the host decides: undecided, never the client.
    func testAHostShortOfCPUTakenByTheInProcessSimulatorIsUndecided() throws {
        var s = processTookTheHost()
        XCTAssertEqual(kind(s), .undecided, "the process's CPU alone does not say whose it was")
        s.host?.clientCores = 0.75
        let l = try XCTUnwrap(StepLimiter.classify(s, first: first, criteria: criteria))
        XCTAssertEqual(l.kind, .undecided)
        XCTAssertEqual(l.evidence, "client threads 0.75 cores, the rest of the process (an embedded simulator) 0.88, "
                       + "other processes 0.00, steal 0.00, idle 0.36")
        XCTAssertEqual(l.withoutDisturbance, "target (service time p50 261.1 ms, 9.7× the first step's 27.0 ms, measured by a client short of CPU)")
        XCTAssertEqual(l.fix, StepLimiter.outOfProcess)
    }

    /// The contradicting sweep: at load 3.5 the step above the knee was named "client CPU (… the process took the
    /// host's CPU: 1.05 cores, 0.46 left idle, 0.38 to other work)" while no client thread was near a core and a
    /// model with twice the capacity let the same client go twice as far.
    func contradicting() -> SweepStep {
        var s = SweepStep(offeredRate: 3000, achievedRate: 2990, p99Millis: 1542.1, deliveredShare: 1, processCPU: 1.05)
        s.intervalP50Millis = [40, 45, 50, 300, 600, 900]
        s.window = 200
        s.connections = 2
        s.streamsPerConnection = 100
        s.windowFilled = true
        s.serviceP50Millis = 420
        s.serviceMeanMillis = 480
        s.engineCPU = 0.41
        s.producerCPU = 0.04
        s.producerLateShare = 0.02
        s.requests = 9000
        s.host = HostLoad(otherCores: 0.38, stealCores: 0, idleCores: 0.46, ownCores: 1.05, clientCores: 0.47)
        return s
    }

    func testTheContradictingStepIsUndecidedOnABusyHostAndTheTargetByItsOwnQueue() throws {
        var s = contradicting()
        let l = try XCTUnwrap(StepLimiter.classify(s, first: first, criteria: criteria))
        XCTAssertEqual(l.kind, .undecided)
        XCTAssertEqual(l.line, "undecided: the host was busy: client threads 0.47 cores, the rest of the process (an embedded simulator) 0.58, "
                       + "other processes 0.38, steal 0.00, idle 0.46; " + StepLimiter.outOfProcess
                       + "; on a quiet host the numbers would name: target (service time p50 420.0 ms, 15.6× the first step's 27.0 ms, "
                       + "measured by a client short of CPU)")
        // The capacity model's own queue, while it served all it could, is the target's whatever the host's CPU.
        s.targetQueueMillis = 350
        s.targetBusyShare = 0.99
        let target = try XCTUnwrap(StepLimiter.classify(s, first: first, criteria: criteria))
        XCTAssertEqual(target.line, "target: requests reached the simulator's capacity model at 99% of its capacity and waited 350.0 ms on average "
                       + "for their connection's server (first step 0.0 ms) at 3000 pushes/s")
        // A starved client's bursts queue too, but it sends less: a model busy 61% of the step decides nothing.
        s.targetBusyShare = 0.61
        XCTAssertEqual(kind(s), .undecided)
        // A wait of a few ms is a burst of the window, not a queue.
        s.targetBusyShare = 0.99
        s.targetQueueMillis = 4
        XCTAssertEqual(kind(s), .undecided)
        // On a quiet host the same numbers decide without the model's queue.
        s.host?.idleCores = 0.9
        XCTAssertEqual(kind(s), .target)
    }

    func testWithoutAFirstStepAFullWindowOnABusyHostIsUndecided() {
        var s = short()
        s.host = HostLoad(otherCores: 1.3, stealCores: 0, idleCores: 0, ownCores: 0.7, clientCores: 0.5)
        XCTAssertEqual(StepLimiter.classify(s, first: nil, criteria: criteria)?.kind, .undecided, "nothing says the service time stayed flat")
        s.host = nil
        XCTAssertEqual(StepLimiter.classify(s, first: nil, criteria: criteria)?.kind, .clientWindow)
    }

    func testOnABusyHostAFullWindowWithFlatServiceTimeIsStillTheWindow() {
        var s = short()
        s.host = HostLoad(otherCores: 1.3, stealCores: 0, idleCores: 0, ownCores: 0.7, clientCores: 0.5)
        XCTAssertEqual(kind(s), .clientWindow, "a client short of CPU would have measured the service time rising")
        s.serviceP50Millis = 90
        XCTAssertEqual(kind(s), .undecided)
    }

    func testASaturatedThreadWithARisingServiceTimeSaysBoth() throws {
        var s = short()
        s.engineCPU = 1.38
        s.serviceP50Millis = 270
        let l = try XCTUnwrap(StepLimiter.classify(s, first: first, criteria: criteria))
        XCTAssertEqual(l.kind, .clientCPU)
        XCTAssertEqual(l.evidence, "engine thread 138% of a core"
                       + "; service time also rose 10.0× (p50 270.0 ms, first step 27.0 ms), measured by a saturated client")
        // A flat service time adds nothing.
        s.serviceP50Millis = 28
        XCTAssertEqual(StepLimiter.classify(s, first: first, criteria: criteria)?.evidence, "engine thread 138% of a core")
    }

    func testARecordingThatRanOutIsTheRecording() {
        var s = short()
        s.streamEnded = true
        s.windowSeconds = 2
        XCTAssertEqual(kind(s), .recording)
    }

    func testOtherWorkTakingTheCPULeavesASaturatedThreadTheClientsAndAnythingElseUndecided() {
        var s = short()
        s.engineCPU = 0.95
        s.host = HostLoad(otherCores: 0.9, stealCores: 0, idleCores: 0.1, ownCores: 1.0, clientCores: 0.97)
        XCTAssertEqual(kind(s), .clientCPU, "a thread at a full core is the client's, whoever else was busy")
        var busy = short()
        busy.windowFilled = false
        busy.producerLateShare = 0.05
        busy.host = HostLoad(otherCores: 0.9, stealCores: 0, idleCores: 0.1, ownCores: 1.0, clientCores: 0.6)
        let l = StepLimiter.classify(busy, first: first, criteria: criteria)
        XCTAssertEqual(l?.kind, .undecided)
        XCTAssertEqual(l?.withoutDisturbance, "client CPU (producer handed 5.0% of pushes over late)")
        // Other work with a core left idle took nothing the run needed.
        busy.host = HostLoad(otherCores: 0.9, stealCores: 0, idleCores: 0.8, ownCores: 0.3, clientCores: 0.2)
        XCTAssertEqual(kind(busy), .clientCPU)
        // Steal counts as other work.
        busy.host = HostLoad(otherCores: 0.1, stealCores: 0.5, idleCores: 0, ownCores: 1.4, clientCores: 0.7)
        XCTAssertEqual(kind(busy), .undecided)
        XCTAssertEqual(StepLimiter.classify(busy, first: first, criteria: criteria)?.fix, StepLimiter.outOfProcess)
        // Against a simulator out of process, the busy host is other processes': nothing to move out.
        busy.host = HostLoad(otherCores: 1.8, stealCores: 0, idleCores: 0, ownCores: 0.2, clientCores: 0.18)
        XCTAssertEqual(StepLimiter.classify(busy, first: first, criteria: criteria)?.fix, StepLimiter.othersTook)
    }

    func testNothingShowingIsUnknown() {
        var s = short()
        s.windowFilled = false
        XCTAssertEqual(kind(s), .unknown)
    }
}
