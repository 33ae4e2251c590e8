import APNsCore
@testable import APNsSimulator
import XCTest

final class LiveActivityTests: XCTestCase {
    let topic = "com.example.app.push-type.liveactivity"
    let activityToken = String(repeating: "9f", count: 80)
    let update = #"{"aps":{"timestamp":1714042800,"event":"update","content-state":{"status":"approved"}}}"#

    func headers(_ h: SimulatorHarness, priority: String? = nil) -> [(String, String)] {
        h.headers(token: activityToken, topic: topic, pushType: "liveactivity", extra: priority.map { [("apns-priority", $0)] } ?? [])
    }

    func testRequiredKeysAreChecked() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, headers(h), body: update))
        XCTAssertRejected(try h.push(c, headers(h), body: #"{"aps":{"timestamp":1,"event":"update"}}"#), SimulatorConfiguration.simulatorBadPayload)
        XCTAssertRejected(try h.push(c, headers(h), body: #"{"aps":{"event":"end","content-state":{}}}"#), SimulatorConfiguration.simulatorBadPayload)
        XCTAssertRejected(try h.push(c, headers(h), body: #"{"aps":{"timestamp":1,"content-state":{}}}"#), SimulatorConfiguration.simulatorBadPayload)
        // start: alert, attributes-type and attributes too.
        let start = #"{"aps":{"timestamp":1,"event":"start","content-state":{},"alert":{"title":"t"},"attributes-type":"A","attributes":{}}}"#
        XCTAssertAccepted(try h.push(c, headers(h), body: start))
        XCTAssertRejected(try h.push(c, headers(h), body: start.replacingOccurrences(of: #""attributes":{}"#, with: #""x":{}"#)),
                          SimulatorConfiguration.simulatorBadPayload)
        XCTAssertRejected(try h.push(c, headers(h), body: start.replacingOccurrences(of: #""alert":{"title":"t"},"#, with: "")),
                          SimulatorConfiguration.simulatorBadPayload)
        // "event" only counts at the aps level.
        XCTAssertRejected(try h.push(c, headers(h), body: #"{"aps":{"timestamp":1,"content-state":{"event":"x"}}}"#),
                          SimulatorConfiguration.simulatorBadPayload)
    }

    func testMissingKeysCanBeCountedInsteadOfRejected() throws {
        let h = try SimulatorHarness { $0.liveActivity.missingKeys = .count }
        XCTAssertAccepted(try h.push(try h.client(), headers(h), body: #"{"aps":{"event":"update"}}"#))
        XCTAssertEqual(h.simulator.counterSnapshot.liveActivityMalformed, 1)
    }

    func testPriorityTenBudgetIsCountedButStillAnswered200() throws {
        let h = try SimulatorHarness { $0.liveActivity.priority10Budget = 3 }
        let c = try h.client()
        for _ in 0..<5 { XCTAssertAccepted(try h.push(c, headers(h, priority: "10"), body: update)) }
        XCTAssertAccepted(try h.push(c, headers(h), body: update), "no priority header counts as 10")
        for _ in 0..<4 { XCTAssertAccepted(try h.push(c, headers(h, priority: "5"), body: update)) }
        XCTAssertEqual(h.simulator.counterSnapshot.liveActivityBudgetOverruns, 3, "pushes 4, 5 and 6 at priority 10; priority 5 is free")
        h.clock.advance(3600)
        XCTAssertAccepted(try h.push(c, headers(h, priority: "10"), body: update))
        XCTAssertEqual(h.simulator.counterSnapshot.liveActivityBudgetOverruns, 3, "a new hour, a new budget")
        XCTAssertEqual(h.simulator.counterSnapshot.flattened["liveactivity_budget_overruns"], 3)
    }
}
