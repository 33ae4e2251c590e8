import APNsCore
import XCTest
@testable import Reporting

final class SummaryTextTests: XCTestCase {
    func testConsoleSummaryListsEveryClassLatencyAndThroughput() {
        let text = SummaryText.console(Fixtures.report(from: Fixtures.mixedRecorder()))
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 8, text)
        XCTAssertTrue(lines[0].contains("18 pushes planned (balanced)"), lines[0])
        XCTAssertTrue(lines[0].contains("simulator"), lines[0])
        XCTAssertEqual(lines[1], "  delivered   5")
        XCTAssertEqual(lines[2], "  rejected    4  (BadDeviceToken 2, HTTP502 1, TooManyRequests 1)")
        XCTAssertEqual(lines[3], "  failed      3  (curl_7_couldnt_connect 2, curl_56_recv_error 1)")
        XCTAssertEqual(lines[4], "  timed out   2")
        XCTAssertEqual(lines[5], "  not sent    4  (no_token 3, run_stopped 1)")
        XCTAssertTrue(lines[6].hasPrefix("  latency    response p50 "), lines[6])
        XCTAssertTrue(lines[6].contains("max 15.00 ms"), lines[6])
        XCTAssertTrue(lines[6].contains("service p50 6."), lines[6])
        XCTAssertTrue(lines[7].hasPrefix("  throughput "), lines[7])
        XCTAssertTrue(lines[7].hasSuffix(" pushes/s"), lines[7])
    }

    func testConsoleSummaryOfARunWithoutDeliveries() {
        let recorder = RunRecorder()
        recorder.record(.notSent(.noToken), priority: .immediate, intended: Fixtures.t0, sent: 0, completed: 0)
        var events = EventTally()
        events.record(kind: "notify", .producedPushes(3))
        let text = SummaryText.console(Fixtures.report(from: recorder, events: events))
        XCTAssertTrue(text.contains("NOT BALANCED"), text)
        XCTAssertTrue(text.contains("no delivered pushes"), text)
        XCTAssertTrue(text.contains("0.0 pushes/s"), text)
    }

    func testBreakdownShowsTheThreeLargestThenHowManyMore() {
        XCTAssertEqual(SummaryText.breakdown([:]), "")
        XCTAssertEqual(SummaryText.breakdown(["a": 1, "b": 5, "c": 3, "d": 2, "e": 1]), "  (b 5, c 3, d 2, +2 more)")
    }

    func testMicrosecondsAreHumanized() {
        XCTAssertEqual(Format.micros(512), "512 µs")
        XCTAssertEqual(Format.micros(3_210), "3.21 ms")
        XCTAssertEqual(Format.micros(1_500_000), "1.50 s")
    }
}
