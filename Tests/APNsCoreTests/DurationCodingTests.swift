import APNsCore
import Foundation
import XCTest

/// report.json's `configuration` keeps its schema: each duration under the key and in the unit and number type it
/// always had, an unset one left out, and read back as the same duration.
final class DurationCodingTests: XCTestCase {
    func json(_ v: some Encodable) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(v), as: UTF8.self)
    }

    func testEachDurationKeepsItsKeyAndUnit() throws {
        var t = RunConfig.Transport()
        XCTAssertEqual(try json(t), #"{"connections":1,"pushTimeoutMillis":30000,"streams":100,"workers":1}"#, "unset durations are left out")
        t.failFast = .milliseconds(1500)
        t.stallTimeout = .seconds(5)
        XCTAssertEqual(try json(t), #"{"connections":1,"failFastSeconds":1.5,"pushTimeoutMillis":30000,"stallTimeoutSeconds":5,"streams":100,"workers":1}"#)
        XCTAssertEqual(try JSONDecoder().decode(RunConfig.Transport.self, from: Data(try json(t).utf8)), t)

        var a = RunConfig.Auth()
        a.tokenRefresh = .seconds(45 * 60)
        XCTAssertEqual(try json(a), #"{"tokenRefreshMinutes":45}"#)
        var r = RunConfig.Retry()
        r.backoff = .milliseconds(250)
        XCTAssertEqual(try json(r), #"{"attempts":10,"backoffMillis":250,"maxBackoffMillis":60000,"maxElapsedMillis":300000,"#
            + #""multiplier":2,"tokenBackoffMillis":1000}"#)
        var s = RunConfig.SLO()
        s.p99 = .seconds(1)
        s.p99TimeToDevice = .milliseconds(60_500)
        XCTAssertEqual(try json(s), #"{"p99Millis":1000,"p99TimeToDeviceMillis":60500}"#)
        var p = RunConfig.Payload()
        p.expiration = .seconds(3600)
        XCTAssertEqual(try json(p), #"{"expirationSeconds":3600,"priority":10}"#)
        var sch = RunConfig.Scheduling()
        sch.duration = .milliseconds(2500)
        XCTAssertEqual(try json(sch), #"{"durationSeconds":2.5,"mode":{"kind":"closed-loop"}}"#)
        XCTAssertEqual(try JSONDecoder().decode(RunConfig.Scheduling.self, from: Data(try json(sch).utf8)), sch)
    }
}
