import APNsEngine
import Foundation
import XCTest
@testable import Harness

/// The run id every shard shares, and the `--start-at` barrier.
final class RunIdentityTests: XCTestCase {
    func testAcceptsIdsSafeInFileNamesLabelsAndMetrics() {
        for id in ["a", "sharded-test", "run-20261123T050000Z-1a2b3c", "v1.2_rc-3", "9", String(repeating: "x", count: 128)] {
            XCTAssertNil(RunIdentity.check(id), id)
        }
    }

    func testRefusesAnythingElseNamingWhatItFound() {
        for id in ["", "-x", ".x", "_x", "a b", "a/b", "a:b", "é", "x\n", String(repeating: "x", count: 129)] {
            let message = RunIdentity.check(id)
            XCTAssertNotNil(message, "'\(id)' accepted")
            XCTAssertEqual(message?.hasSuffix("found '\(id)'"), true, message ?? "")
            XCTAssertEqual(message?.hasPrefix("must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit"), true, message ?? "")
        }
    }

    func testAFreshIdIsTheStartTimeInUTCAndRandomBitsAndPassesTheCheck() throws {
        let now = try XCTUnwrap(StartBarrier.parse("2026-11-23T05:00:00Z"))
        let ids = (0..<20).map { _ in RunIdentity.fresh(now: now) }
        for id in ids {
            XCTAssertNotNil(id.range(of: "^run-20261123T050000Z-[0-9a-f]{1,6}$", options: .regularExpression), id)
            XCTAssertNil(RunIdentity.check(id), id)
        }
        XCTAssertGreaterThan(Set(ids).count, 1, "the random part differs: \(ids)")
    }

    func testStartAtParsesUTCOffsetsAndFractionsAndRefusesTheRest() throws {
        let utc = try XCTUnwrap(StartBarrier.parse("2026-11-23T10:00:00Z"))
        XCTAssertEqual(utc.timeIntervalSince1970, 1_795_428_000)
        XCTAssertEqual(StartBarrier.parse("2026-11-23T12:00:00+02:00"), utc)
        XCTAssertEqual(try XCTUnwrap(StartBarrier.parse("2026-11-23T10:00:00.250Z")).timeIntervalSince(utc), 0.25, accuracy: 1e-6)
        for bad in ["", "tomorrow", "2026-11-23", "2026-11-23 10:00:00", "10:00:00Z", "2026-13-01T00:00:00Z"] {
            XCTAssertNil(StartBarrier.parse(bad), bad)
        }
    }

    func testATimeThatPassedStartsAtOnceSayingByHowMuch() {
        var lines: [String] = []
        StartBarrier.wait(until: Date().addingTimeInterval(-90), stop: RunStop(), shard: .init(index: 1, count: 3)) { lines.append($0) }
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertNotNil(lines.first?.range(of: #"^apnsbench: --start-at \S+ passed 9\d\.\d s ago; starting now \(shard 1/3\)$"#,
            options: .regularExpression), "\(lines)")
    }

    func testARequestedStopEndsTheWait() {
        let stop = RunStop()
        stop.request(drainSeconds: 0)
        var lines: [String] = []
        // An hour ahead: only the stop can end this wait.
        StartBarrier.wait(until: Date().addingTimeInterval(3600), stop: stop, shard: nil) { lines.append($0) }
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.hasPrefix("apnsbench: waiting 3") == true, "\(lines)")
        XCTAssertTrue(lines.first?.contains(" s for --start-at ") == true, "\(lines)")
    }
}
