import APNsCore
import Foundation
import XCTest
@testable import Reporting

/// The timeline at an interval other than 1 s, and the connection events each interval carries.
final class TimelineIntervalTests: XCTestCase {
    func testAFiveSecondIntervalGroupsFiveSecondsAndNamesItsStart() {
        let r = RunRecorder(intervalSeconds: 5)
        r.start(atNanos: Fixtures.t0)
        for ms in [100.0, 4_900, 5_000, 12_000] { Fixtures.send(r, .delivered, sentAfterMs: ms, serviceMs: 1) }
        let entries = r.timelineEntries
        XCTAssertEqual(entries.map(\.second), [0, 5, 10], "each entry's start, in seconds")
        XCTAssertEqual(entries.map(\.sent), [2, 1, 1])
        XCTAssertEqual(entries.map(\.delivered), [2, 1, 1])
    }

    func testConnectionEventsCountInTheirIntervalAndTheOpenGaugeCarriesOver() {
        let r = RunRecorder()
        r.start(atNanos: Fixtures.t0)
        let s: UInt64 = 1_000_000_000
        r.recordConnections(ConnectionTally(opened: 2, tokenSignings: 1), at: Fixtures.t0 + s / 2)
        Fixtures.send(r, .delivered, sentAfterMs: 3_500, serviceMs: 1)
        // Second 2: the server ends one connection (GOAWAY) and libcurl opens another.
        r.recordConnections(ConnectionTally(opened: 1, reconnects: 1, goAways: 1), at: Fixtures.t0 + 2 * s + 1)
        // Second 3: one lost, re-signed after a 403.
        r.recordConnections(ConnectionTally(lost: 1, tokenSignings: 1), at: Fixtures.t0 + 3 * s + 1)
        let e = r.timelineEntries
        XCTAssertEqual(e.count, 4)
        XCTAssertEqual(e.map(\.connectionsOpen), [2, 2, 2, 1])
        XCTAssertEqual(e.map(\.goAways), [0, 0, 1, 0])
        XCTAssertEqual(e.map(\.reconnects), [0, 0, 1, 0])
        XCTAssertEqual(e.map(\.tokenSignings), [1, 0, 0, 1])
    }

    func testWorkersConnectionEventsAddUpWhenRecordersMerge() {
        let a = RunRecorder(), b = RunRecorder()
        a.start(atNanos: Fixtures.t0)
        b.start(atNanos: Fixtures.t0)
        a.recordConnections(ConnectionTally(opened: 1, tokenSignings: 1), at: Fixtures.t0 + 1)
        b.recordConnections(ConnectionTally(opened: 1, tokenSignings: 1), at: Fixtures.t0 + 2)
        b.recordConnections(ConnectionTally(lost: 1), at: Fixtures.t0 + 1_500_000_000)
        a += b
        let e = a.timelineEntries
        XCTAssertEqual(e.map(\.connectionsOpen), [2, 1])
        XCTAssertEqual(e.map(\.tokenSignings), [2, 0])
    }

    func testTheProgressSnapshotHasTheCountsAndTheLastClosedIntervalsP99() {
        let r = RunRecorder()
        r.start(atNanos: Fixtures.t0)
        for _ in 0..<99 { Fixtures.send(r, .delivered, sentAfterMs: 10, serviceMs: 1) }
        Fixtures.send(r, .delivered, sentAfterMs: 10, serviceMs: 50)
        Fixtures.send(r, .rejected(.badDeviceToken), sentAfterMs: 20, serviceMs: 1)
        XCTAssertNil(r.progressSnapshot().lastIntervalP99Micros, "second 0 is still open")
        Fixtures.send(r, .delivered, sentAfterMs: 1_100, serviceMs: 1)   // opens second 1, closing second 0
        let p = r.progressSnapshot()
        XCTAssertEqual(p.delivered, 101)
        XCTAssertEqual(p.rejected, 1)
        let p99 = try? XCTUnwrap(p.lastIntervalP99Micros)
        XCTAssertEqual(Double(p99 ?? 0), 1_000, accuracy: 10, "99 of 100 answers took 1 ms")
    }
}
