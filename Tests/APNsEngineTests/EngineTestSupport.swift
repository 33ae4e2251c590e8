import APNsCore
import APNsEngine
import APNsSimulator
import XCTest

/// A push source over a fixed list, for tests.
final class ListPushSource: PushSource {
    struct Item {
        var token: String
        var body: [UInt8]
        var priority: Priority = .immediate
    }
    private var items: [Item]
    private var index = 0
    init(_ items: [Item]) { self.items = items }

    func next(into push: inout OutgoingPush) -> Bool {
        guard index < items.count else { return false }
        let item = items[index]
        index += 1
        push.deviceToken = item.token
        push.body.removeAll(keepingCapacity: true)
        push.body.append(contentsOf: item.body)
        push.priority = item.priority
        push.intendedNanos = 0
        return true
    }
}

/// Collects outcomes, for tests.
final class CollectingSink: OutcomeSink {
    var outcomes: [Outcome] = []
    var delivered = 0
    var rejected: [String: Int] = [:]
    func record(_ outcome: Outcome, priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64) {
        outcomes.append(outcome)
        switch outcome {
        case .delivered: delivered += 1
        case let .rejected(r): rejected[r.rawValue, default: 0] += 1
        default: break
        }
    }
}

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
