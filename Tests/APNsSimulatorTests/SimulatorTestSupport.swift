import APNsCore
@testable import APNsSimulator
import NIOConcurrencyHelpers
import NIOPosix
import XCTest

/// A clock tests move: the 20- and 60-minute rules run in milliseconds of real time.
final class MovableClock: @unchecked Sendable {
    private let box = NIOLockedValueBox<Double>(1_700_000_000)
    var now: Double { box.withLockedValue { $0 } }
    func advance(_ seconds: Double) { box.withLockedValue { $0 += seconds } }
    var wallClock: WallClock { WallClock { [box] in box.withLockedValue { $0 } } }
}

/// A validating simulator over h2c on a free loopback port, with one registered key and a clock the
/// test moves, plus raw clients to talk to it.
final class SimulatorHarness {
    let clock = MovableClock()
    let key = SigningKey.generate(keyID: "KEY0000001", teamID: "TEAM000001")
    let bundleID = "com.example.app"
    let simulator: APNsSimulator
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var clients: [RawHTTP2Client] = []

    init(_ configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws {
        var c = SimulatorConfiguration()
        c.h2c = true
        c.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
        c.topicsByTeam[key.teamID] = [bundleID, "com.example.voip"]
        c.clock = clock.wallClock
        configure(&c)
        simulator = try APNsSimulator(configuration: c)
        try simulator.start()
    }

    deinit {
        clients.forEach { $0.close() }
        simulator.stop()
        try? group.syncShutdownGracefully()
    }

    func client(autoAckSettings: Bool = true) throws -> RawHTTP2Client {
        let c = try RawHTTP2Client(port: simulator.port, group: group, autoAckSettings: autoAckSettings)
        clients.append(c)
        return c
    }

    /// One token for the harness's life (ES256 signatures are randomized: signing again makes a new
    /// token, which on one connection within 20 minutes is TooManyProviderTokenUpdates).
    lazy var providerToken: String = bearer()

    /// A freshly signed token.
    func bearer(_ signer: SigningKey? = nil, iat: Int? = nil) -> String {
        "bearer " + ProviderTokenCache.makeJWT(key: signer ?? key, issuedAt: iat ?? Int(clock.now))
    }

    static let deviceToken = String(repeating: "ab", count: 32)
    static let alert = #"{"aps":{"alert":"hi"}}"#

    /// A good alert push, with overrides: a nil value drops the header; `extra` headers are appended;
    /// `authorization` "" (the default) is the harness's token.
    func headers(method: String = "POST", path: String? = nil, token: String = SimulatorHarness.deviceToken,
                 topic: String? = "com.example.app", pushType: String? = "alert", authorization: String? = "",
                 extra: [(String, String)] = []) -> [(String, String)] {
        var h: [(String, String)] = [(":method", method), (":scheme", "http"), (":path", path ?? "/3/device/\(token)"),
                                     (":authority", "127.0.0.1")]
        if let topic { h.append(("apns-topic", topic)) }
        if let pushType { h.append(("apns-push-type", pushType)) }
        if let authorization { h.append(("authorization", authorization.isEmpty ? providerToken : authorization)) }
        return h + extra
    }

    /// Sends one request and waits for its response.
    func push(_ client: RawHTTP2Client, _ headers: [(String, String)], body: String? = SimulatorHarness.alert,
              file: StaticString = #filePath, line: UInt = #line) throws -> RawHTTP2Client.Response {
        let id = try client.send(headers, body: body)
        guard let r = client.response(id, file: file, line: line) else { throw NoResponse(stream: id) }
        return r
    }
}

/// Asserts status and the `reason` of the body.
func XCTAssertRejected(_ r: RawHTTP2Client.Response, _ reason: Reason, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(r.status, reason.status, "status for \(reason) (body \(r.body)) \(message)", file: file, line: line)
    XCTAssertEqual(r.json["reason"] as? String, reason.rawValue, "body \(r.body)", file: file, line: line)
    XCTAssertEqual(r.headers.first(name: "content-type"), "application/json", file: file, line: line)
    XCTAssertNotNil(r.headers.first(name: "apns-id"), file: file, line: line)
    if reason.status != 410 {
        XCTAssertEqual(r.body, reason.responseBody, file: file, line: line)
    }
}

func XCTAssertAccepted(_ r: RawHTTP2Client.Response, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(r.status, 200, "body \(r.body) \(message)", file: file, line: line)
    XCTAssertEqual(r.body, "", file: file, line: line)
    XCTAssertNotNil(r.headers.first(name: "apns-id"), file: file, line: line)
}

struct NoResponse: Error { let stream: UInt32 }
