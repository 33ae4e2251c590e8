import APNsCore
import Foundation
import TestSupport
import XCTest
@testable import Replay

/// The two shipped leave-request recordings: leave-requests-api.ndjson (the app's API calls, as a server
/// middleware logs them) carries every value of leave-requests.ndjson (its events), line for line.
final class LeaveRequestAPIFormTests: XCTestCase {
    private func lines(_ name: String) throws -> [FlatJSONObject] {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepoFiles.stream(name)))
        XCTAssertEqual(data.last, UInt8(ascii: "\n"))
        return try data.split(separator: UInt8(ascii: "\n")).enumerated().map { try FlatJSON.parse(ArraySlice($0.element), line: $0.offset + 1) }
    }

    private func field<T>(_ line: FlatJSONObject, _ dotted: String, _ accessor: (FlatJSONObject, String) throws -> T?) throws -> T? {
        try line.readOptional(XCTUnwrap(FieldPath(dotted: dotted)), accessor)
    }

    func testEveryAPILineCarriesItsEventLinesValues() throws {
        let events = try lines("leave-requests")
        let calls = try lines("leave-requests-api")
        XCTAssertEqual(calls.count, events.count)
        var kinds: [String: Int] = [:]
        var lateTokens = 0, noTokens = 0
        for (event, call) in zip(events, calls) {
            let kind = try event.string("kind")
            kinds[kind, default: 0] += 1
            XCTAssertEqual(try call.string("at"), try event.string("at"), "line \(event.line)")
            XCTAssertFalse(call.has("kind"))
            let id = try event.int("request_id")
            let body = try XCTUnwrap(try call.nested("body"))
            switch kind {
            case "leave.created":
                XCTAssertEqual(try call.string("method"), "POST")
                XCTAssertEqual(try call.string("path"), "/api/leave-requests")
                XCTAssertEqual(try field(call, "response.status") { try $0.optionalInt($1) }, 201)
                XCTAssertEqual(try field(call, "response.body.request.id") { try $0.optionalInt($1) }, id)
                XCTAssertEqual(try body.int("student_id"), try event.int("student_id"))
                XCTAssertEqual(try body.string("student_name"), try event.string("student_name"))
                XCTAssertEqual(try body.string("request_type"), try event.string("request_type"))
                XCTAssertEqual(try body.optionalString("reason"), try event.optionalString("reason"))
                XCTAssertEqual(try body.optionalString("live_activity_id"), try event.optionalString("activity_id"))
                XCTAssertEqual(try body.optionalString("live_activity_token"), try event.optionalString("token"))
                XCTAssertEqual(try field(call, "response.body.request.live_activity_token") { try $0.optionalString($1) },
                               try event.optionalString("token"))
                if try event.optionalString("token") == nil { noTokens += 1 }
            case "leave.token":
                lateTokens += 1
                XCTAssertEqual(try call.string("method"), "PUT")
                XCTAssertEqual(try call.string("path"), "/api/leave-requests/\(id)/live-activity")
                XCTAssertEqual(try body.optionalString("live_activity_id"), try event.optionalString("activity_id"))
                XCTAssertEqual(try body.string("live_activity_token"), try event.string("token"))
            case "leave.status":
                XCTAssertEqual(try call.string("method"), "PUT")
                XCTAssertEqual(try call.string("path"), "/api/leave-requests/\(id)/status")
                XCTAssertEqual(try body.string("status"), try event.string("status"))
                XCTAssertEqual(try body.optionalInt("staff_id"), try event.optionalInt("staff_id"))
                XCTAssertEqual(try body.optionalString("staff_name"), try event.optionalString("staff_name"))
            default:
                XCTFail("unexpected kind \(kind)")
            }
            if call.has("response") { XCTAssertEqual(kind, "leave.created", "only a creation logs its answer") }
        }
        XCTAssertEqual(kinds["leave.created"], 360)
        XCTAssertGreaterThan(lateTokens, 0, "some tokens arrive later")
        XCTAssertGreaterThanOrEqual(noTokens, lateTokens, "a late token belongs to a creation without one")
        XCTAssertGreaterThan(kinds["leave.status"] ?? 0, 360)
    }

    /// The API form reads as a stream with no kind field, in time order.
    func testTheAPIFormReadsWithoutAKindField() throws {
        let reader = try EventStreamReader(path: RepoFiles.stream("leave-requests-api"), shape: RecordShape(kindField: nil))
        while let event = try reader.next() {
            guard case let .record(_, _, kind, _) = event else { return XCTFail("bad line: \(event)") }
            XCTAssertEqual(kind, "")
        }
        XCTAssertEqual(reader.badLinesRead, 0)
        XCTAssertGreaterThan(reader.recordsRead, 360)
    }
}
