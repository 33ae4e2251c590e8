import APNsCore
@testable import APNsSimulator
import XCTest

/// The 20- and 60-minute provider-token rules per connection, over the wire, with the moved clock.
final class ProviderTokenRuleTests: XCTestCase {
    func testTheSameTokenExpiresAfterSixtyMinutes() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let token = h.bearer()
        XCTAssertAccepted(try h.push(c, h.headers(authorization: token)))
        h.clock.advance(3599)
        XCTAssertAccepted(try h.push(c, h.headers(authorization: token)))
        h.clock.advance(2)
        XCTAssertRejected(try h.push(c, h.headers(authorization: token)), .expiredProviderToken)
        // A fresh token (more than 20 minutes after the last change) is fine.
        XCTAssertAccepted(try h.push(c, h.headers(authorization: h.bearer())))
        XCTAssertEqual(h.simulator.counterSnapshot.tokenVerifications, 2, "a token seen again is not verified again")
    }

    func testANewTokenWithinTwentyMinutesIsRefusedAndTheConnectionStaysRefusing() throws {
        let h = try SimulatorHarness { $0.tokenUpdatePenalty = 600 }
        let c = try h.client()
        let first = h.bearer()
        XCTAssertAccepted(try h.push(c, h.headers(authorization: first)))
        h.clock.advance(19 * 60)
        XCTAssertRejected(try h.push(c, h.headers(authorization: h.bearer())), .tooManyProviderTokenUpdates)
        // Poisoned: even the old token is refused for the penalty time.
        XCTAssertRejected(try h.push(c, h.headers(authorization: first)), .tooManyProviderTokenUpdates)
        h.clock.advance(599)
        XCTAssertRejected(try h.push(c, h.headers(authorization: first)), .tooManyProviderTokenUpdates)
        // Another connection is not affected.
        XCTAssertAccepted(try h.push(try h.client(), h.headers(authorization: h.bearer())))
        h.clock.advance(2)
        XCTAssertAccepted(try h.push(c, h.headers(authorization: first)))
    }

    func testATokenChangeAfterTwentyMinutesIsAccepted() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, h.headers()))
        h.clock.advance(20 * 60)
        XCTAssertAccepted(try h.push(c, h.headers(authorization: h.bearer())))
    }
}
