import APNsCore
import APNsEngine
import APNsSimulator
import TestSupport
import XCTest

/// A simulator on a free loopback port that knows `key`, and an engine configuration pointed at it.
struct SimulatorFixture {
    let key = SigningKey.generate()
    let simulator: APNsSimulator
    let bundleID = "com.example.leave"

    init(configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws {
        var config = SimulatorConfiguration()
        config.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
        config.topicsByTeam[key.teamID] = [bundleID]
        configure(&config)
        simulator = try APNsSimulator(configuration: config)
        try simulator.start()
    }

    func engineConfiguration(pushType: PushType = .liveactivity, topic: String? = nil, connections: Int = 1, streams: Int = 100) -> EngineConfiguration {
        EngineConfiguration(
            baseURL: simulator.url,
            topic: topic ?? pushType.topic(bundleID: bundleID),
            pushType: pushType,
            connections: connections,
            streamsPerConnection: streams,
            trustedCertificatePEM: simulator.certificates?.caPEM)
    }

    func engine(_ configuration: EngineConfiguration) throws -> CurlEngine {
        try CurlEngine(configuration: configuration, tokens: ProviderTokenCache(key: key))
    }
}

let goodToken = String(repeating: "ab", count: 80)  // 160 hex characters, like a Live Activity token
let smallPayload = Array(#"{"aps":{"timestamp":1714042800,"event":"update","content-state":{"status":"approved"}}}"#.utf8)

extension CurlEngine {
    /// Runs `run(source:sink:)` on a new thread and waits for it: the multi handle gets a thread of its
    /// own, apart from the simulator's event loops and the test's thread.
    func runOnOwnThread(source: PushSource, sink: OutcomeSink) throws -> EngineCounters {
        /// What the engine thread reads and writes; the semaphore orders the write before the read.
        final class Handoff: @unchecked Sendable {
            let engine: CurlEngine, source: PushSource, sink: OutcomeSink
            var result: Result<EngineCounters, Error> = .failure(EngineError.curlSetup("engine thread did not run"))
            let done = DispatchSemaphore(value: 0)
            init(engine: CurlEngine, source: PushSource, sink: OutcomeSink) {
                self.engine = engine; self.source = source; self.sink = sink
            }
        }
        let handoff = Handoff(engine: self, source: source, sink: sink)
        let thread = Thread {
            handoff.result = Result { try handoff.engine.run(source: handoff.source, sink: handoff.sink) }
            handoff.done.signal()
        }
        thread.name = "apnsbench-engine-test"
        thread.stackSize = 4 << 20
        thread.start()
        handoff.done.wait()
        return try handoff.result.get()
    }
}
