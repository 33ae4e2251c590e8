import APNsCore
@testable import APNsSimulator
import XCTest

final class FastModeTests: XCTestCase {
    func testFastModeAnswersEverything200WithoutValidatingAndEchoesTheID() throws {
        let h = try SimulatorHarness { $0.fast = true }
        let c = try h.client()
        c.wait("SETTINGS") { _ in !c.advertisedLimits.isEmpty }
        XCTAssertEqual(c.advertisedLimits, [1000], "no token to wait for")
        let bad = try h.push(c, [(":method", "GET"), (":scheme", "http"), (":path", "/nonsense"), (":authority", "x")], body: nil)
        XCTAssertAccepted(bad)
        let id = "123e4567-e89b-12d3-a456-4266554400a0"
        let echoed = try h.push(c, h.headers(authorization: nil, extra: [("apns-id", id)]))
        XCTAssertEqual(echoed.headers.first(name: "apns-id"), id)
        let counters = h.simulator.counterSnapshot
        XCTAssertEqual(counters.accepted, 2)
        XCTAssertEqual(counters.requests, 2)
    }
}
