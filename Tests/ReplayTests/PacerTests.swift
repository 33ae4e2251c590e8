import APNsCore
@testable import Replay
import XCTest

/// The schedule is a pure function of the push's index and recorded time: table-driven.
final class PacerTests: XCTestCase {
    struct Row {
        let schedule: Schedule
        let push: Int
        let recordedMillis: Int64
        let expected: Double?
        let line: UInt
        init(_ schedule: Schedule, _ push: Int, _ recordedMillis: Int64, _ expected: Double?, line: UInt = #line) {
            self.schedule = schedule
            self.push = push
            self.recordedMillis = recordedMillis
            self.expected = expected
            self.line = line
        }
    }

    func testOffsets() {
        let rows: [Row] = [
            // Closed loop: no intended time, the push is due when sent.
            Row(.closedLoop, 0, 0, nil),
            Row(.closedLoop, 99, 5_000, nil),
            // Recorded pace, compressed by speed; the index does not matter.
            Row(.recorded(speed: 1), 0, 0, 0),
            Row(.recorded(speed: 1), 7, 2_500, 2.5),
            Row(.recorded(speed: 10), 7, 2_500, 0.25),
            Row(.recorded(speed: 0.5), 0, 1_000, 2),
            Row(.recorded(speed: 60), 0, 3_600_000, 60),
            // Fixed rate: n / rate, whatever was recorded.
            Row(.fixedRate(perSecond: 1000), 0, 99, 0),
            Row(.fixedRate(perSecond: 1000), 1, 0, 0.001),
            Row(.fixedRate(perSecond: 1000), 1_000_000, 0, 1000),
            Row(.fixedRate(perSecond: 3), 10, 0, 10.0 / 3),
            // Ramp 0 -> 100/s over 10 s: pushes by time x = 5x²; the 125th (n = 125) at 5 s.
            Row(.ramp(from: 0, to: 100, seconds: 10), 0, 0, 0),
            Row(.ramp(from: 0, to: 100, seconds: 10), 125, 0, 5),
            Row(.ramp(from: 0, to: 100, seconds: 10), 500, 0, 10),
            // After the ramp: 500 by 10 s, then 100/s.
            Row(.ramp(from: 0, to: 100, seconds: 10), 600, 0, 11),
            // A flat "ramp" is a fixed rate.
            Row(.ramp(from: 50, to: 50, seconds: 10), 100, 0, 2),
            // Ramp down: 100 -> 50 over 10 s: 750 pushes by 10 s.
            Row(.ramp(from: 100, to: 50, seconds: 10), 750, 0, 10),
            Row(.ramp(from: 100, to: 50, seconds: 10), 800, 0, 11),
        ]
        for row in rows {
            let got = Pacer(row.schedule).offset(push: row.push, recordedMillis: row.recordedMillis)
            switch (got, row.expected) {
            case (nil, nil): continue
            case let (g?, e?): XCTAssertEqual(g, e, accuracy: 1e-9, "\(row.schedule) push \(row.push)", line: row.line)
            default: XCTFail("\(row.schedule) push \(row.push): got \(String(describing: got)), expected \(String(describing: row.expected))", line: row.line)
            }
        }
    }

    /// Offsets never go backwards along the push index, and a big index does not overflow or lose precision.
    func testOffsetsAreMonotonicAndExactForLargeIndexes() {
        for schedule in [Schedule.fixedRate(perSecond: 7), .ramp(from: 10, to: 5000, seconds: 30), .ramp(from: 5000, to: 10, seconds: 30)] {
            let pacer = Pacer(schedule)
            var last = -1.0
            for n in stride(from: 0, to: 200_000, by: 997) {
                let o = pacer.offset(push: n, recordedMillis: 0)!
                XCTAssertGreaterThanOrEqual(o, last, "\(schedule) at \(n)")
                last = o
            }
        }
        XCTAssertEqual(Pacer(.fixedRate(perSecond: 1e6)).offset(push: 5_000_000_000, recordedMillis: 0)!, 5000, accuracy: 1e-6)
    }

    func testBadSchedulesAreRefusedWithTheValueNamed() {
        XCTAssertThrowsError(try Schedule.recorded(speed: 0).validate()) { XCTAssertTrue("\($0)".contains("speed 0")) }
        XCTAssertThrowsError(try Schedule.fixedRate(perSecond: -5).validate())
        XCTAssertThrowsError(try Schedule.parseRamp("1000:fast:60")) { XCTAssertTrue("\($0)".contains("1000:fast:60")) }
        XCTAssertEqual(try Schedule.parseRamp("1000:20000:60"), .ramp(from: 1000, to: 20000, seconds: 60))
    }
}
