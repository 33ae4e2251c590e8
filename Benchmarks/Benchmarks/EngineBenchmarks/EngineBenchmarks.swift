// End to end: CurlEngine → `apnsbench simulate --fast` in another process (so that CPU time and mallocs
// are the client's), 1 connection × 100 streams, TLS unless APNSBENCH_SIM_H2C=1; where the simulator comes
// from: BenchSupport.SimulatorTarget (APNSBENCH_SIM_URL, or a child from the root's release build).
//
// One iteration sends 1 000 pushes (scalingFactor .kilo), so the printed (*) mallocCountTotal is mallocs per
// push; the engine and its connection live across iterations, as in a run. The bare libcurl loop runs beside
// it, same options and window: the engine's count minus the loop's is what the engine adds to libcurl's own
// allocations per push.
//
// Gating (`thresholds check`): mallocCountTotal p90 only, within 100 per 1 000 pushes (0.1 per push: libcurl's
// count moves a little with how reads and writes batch; one more allocation per push is +1 000). Pushes/s and
// pushes per CPU-second are custom metrics, reported only.
import APNsCore
import APNsEngine
import Benchmark
import BenchSupport
import TestSupport
import Foundation

let pushesPerSecond = BenchmarkMetric.custom("pushesPerSecond", polarity: .prefersLarger, useScalingFactor: false)
let pushesPerCPUSecond = BenchmarkMetric.custom("pushesPerCPUSecond", polarity: .prefersLarger, useScalingFactor: false)

let gate: [BenchmarkMetric: BenchmarkThresholds] = [
    .mallocCountTotal: .init(absolute: [.p90: 100]),
    .wallClock: .none,
    .cpuTotal: .none,
    .throughput: .none,
    pushesPerSecond: .none,
    pushesPerCPUSecond: .none,
]

/// The simulator and what runs against it, shared by the benchmarks of one process run.
final class Fixture {
    nonisolated(unsafe) static var shared: Fixture?

    let target: SimulatorTarget
    let tokens: ProviderTokenCache
    let bearer: String
    let source = FakePushSource.repeating(0, body: BenchDefaults.body, tokens: [BenchDefaults.deviceToken])
    let sink = RecordingSink(keepEntries: false)
    lazy var engine: CurlEngine = try! CurlEngine(
        configuration: EngineSetup.configuration(url: target.url, caPEM: target.caPEM), tokens: tokens)
    lazy var pollLoop: ReferenceLoop = try! ReferenceLoop(
        url: target.url, caPEM: target.caPEM, bearer: bearer, body: BenchDefaults.body, options: .init())
    lazy var pollLoopURLPerPush: ReferenceLoop = {
        var o = ReferenceLoop.Options()
        o.setURLPerPush = true
        return try! ReferenceLoop(url: target.url, caPEM: target.caPEM, bearer: bearer, body: BenchDefaults.body, options: o)
    }()

    init() throws {
        target = try SimulatorTarget.fromEnvironment()
        print("EngineBenchmarks: simulator: \(target.origin)")
        tokens = try EngineSetup.tokens()
        bearer = tokens.bearer()
    }

    static func start() throws {
        if shared == nil { shared = try Fixture() }
    }

    static func stop() {
        shared?.target.stop()
        shared = nil
    }
}

/// Reports pushes/s and pushes per CPU-second of one iteration.
func measureRate(_ benchmark: Benchmark, pushes: Int, _ body: () throws -> Void) rethrows {
    let cpu0 = CPUTime.now()
    let t0 = MonotonicTime.now()
    try body()
    let nanos = MonotonicTime.now() - t0
    let cpuMicros = CPUTime.now().totalMicros - cpu0.totalMicros
    benchmark.measurement(pushesPerSecond, Int(Double(pushes) / (Double(nanos) / 1e9)))
    if cpuMicros > 0 { benchmark.measurement(pushesPerCPUSecond, Int(Double(pushes) * 1e6 / Double(cpuMicros))) }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal, pushesPerSecond, pushesPerCPUSecond],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(5),
        maxIterations: 200,
        thresholds: gate,
        setup: { try Fixture.start() },
        teardown: { Fixture.stop() }
    )

    Benchmark("EngineEndToEnd_1x100") { benchmark in
        let f = Fixture.shared!
        let pushes = benchmark.scaledIterations.count
        f.source.reset(count: pushes)
        f.sink.reset()
        benchmark.startMeasurement()
        try measureRate(benchmark, pushes: pushes) {
            _ = try f.engine.run(source: f.source, sink: f.sink)
        }
        benchmark.stopMeasurement()
        guard f.sink.delivered == pushes else {
            benchmark.error("engine: \(f.sink.delivered) of \(pushes) delivered, first problem \(String(describing: f.sink.firstProblem))")
            return
        }
    }

    // The bare libcurl loop (poll drive), with CURLOPT_URL set once, and set per push as the engine does.
    for (name, urlPerPush) in [("ReferencePoll_1x100", false), ("ReferencePollURLPerPush_1x100", true)] {
        Benchmark(name) { benchmark in
            let f = Fixture.shared!
            let pushes = benchmark.scaledIterations.count
            let loop = urlPerPush ? f.pollLoopURLPerPush : f.pollLoop
            benchmark.startMeasurement()
            try measureRate(benchmark, pushes: pushes) {
                try loop.run(pushes: pushes)
            }
            benchmark.stopMeasurement()
        }
    }
}
