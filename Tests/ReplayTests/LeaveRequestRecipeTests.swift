import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// The shipped leave-requests recipe (profiles/recipes/leave-requests.yaml) over small recordings.
final class LeaveRequestRecipeTests: XCTestCase {
    /// A status change before the token arrives is planned and not sent (no_token); after the late token
    /// (the app's PUT /live-activity) the next change is sent to it.
    func testLateTokenStatusChangesBeforeItAreNotSentAfterItAreSent() throws {
        let token = String(repeating: "9f", count: 80)
        let lines = [
            #"{"at":"2025-04-16T10:00:00Z","kind":"leave.created","request_id":22,"student_id":1427,"student_name":"John Doe","request_type":"early","#
                + #""reason":"Doctor appointment","activity_id":"E0D62919-9EF2-49C6-A108-85A227AF3904","token":null}"#,
            #"{"at":"2025-04-16T10:01:00Z","kind":"leave.status","request_id":22,"status":"pending","staff_id":101,"staff_name":"Jane Smith"}"#,
            #"{"at":"2025-04-16T10:02:00Z","kind":"leave.token","request_id":22,"activity_id":"E0D62919-9EF2-49C6-A108-85A227AF3904","token":"\#(token)"}"#,
            #"{"at":"2025-04-16T10:04:52Z","kind":"leave.status","request_id":22,"status":"approved","staff_id":101,"staff_name":"Jane Smith"}"#,
            #"{"at":"2025-04-16T12:00:00Z","kind":"leave.status","request_id":22,"status":"finished"}"#,
        ]
        let path = StreamTestFiles.write(lines.joined(separator: "\n"), for: self)
        let ledger = WorkloadLedger()
        let rules = try ShippedRecipes.rules("leave-requests")
        ledger.drain(try ledger.driver(rules, path: path))
        XCTAssertEqual(ledger.sent.map(\.token), [token, token])
        let sent = ledger.sent.map(\.json)
        XCTAssertEqual(ledger.notSent, ["no_token": 1])
        XCTAssertEqual(sent.count, 2)
        let aps = sent.map { $0["aps"] as? [String: Any] ?? [:] }
        XCTAssertEqual(aps.map { $0["event"] as? String }, ["update", "end"])
        XCTAssertEqual(aps.map { ($0["content-state"] as? [String: Any])?["status"] as? String }, ["approved", "finished"])
        XCTAssertEqual(aps[0]["timestamp"] as? Int, 1_744_797_892)
        // Dates as the app's model decodes them by default: seconds since 2001-01-01 (10:04:52 and the
        // request's creation at 10:00:00 on 2025-04-16).
        XCTAssertEqual((aps[0]["content-state"] as? [String: Any])?["responseTime"] as? Double, 766_490_692)
        XCTAssertEqual((aps[0]["attributes"] as? [String: Any])?["requestTime"] as? Double, 766_490_400)
        XCTAssertTrue((aps[1]["content-state"] as? [String: Any])?["respondedBy"] is NSNull, "no staff name: null, as the app's optional")
        XCTAssertEqual(ledger.planned, 3)
        ledger.assertBalanced(linesRead: lines.count)
    }

    /// The shipped recipe with `json` as its template.
    private func rules(template json: String) throws -> RecipeRules {
        RecipeRules(try ShippedRecipes.withTemplate("leave-requests", json, for: self), priority: .immediate)
    }

    /// The same events through the ISO-dates example template: times as ISO 8601 text, a missing reason as null.
    func testTimesInStringSlotsAreISOTextAndAMissingReasonIsNullWithoutOrEmpty() throws {
        let iso = try String(contentsOfFile: RepoFiles.path("profiles/examples/templates/leave-requests-iso-dates.json"), encoding: .utf8)
        let token = String(repeating: "9f", count: 80)
        let lines = [
            #"{"at":"2025-04-16T10:00:00.500Z","kind":"leave.created","request_id":1,"student_id":7,"student_name":"A","request_type":"early","reason":null,"#
                + #""activity_id":"E0D6","token":"\#(token)"}"#,
            #"{"at":"2025-04-16T10:04:52Z","kind":"leave.status","request_id":1,"status":"approved"}"#,
        ]
        let ledger = WorkloadLedger()
        ledger.drain(try ledger.driver(try rules(template: iso),
                                       path: StreamTestFiles.write(lines.joined(separator: "\n"), for: self)))
        let aps = try XCTUnwrap(ledger.sent.first).aps
        XCTAssertEqual((aps["content-state"] as? [String: Any])?["responseTime"] as? String, "2025-04-16T10:04:52Z")
        XCTAssertEqual((aps["attributes"] as? [String: Any])?["requestTime"] as? String, "2025-04-16T10:00:00.500Z")
        XCTAssertTrue((aps["attributes"] as? [String: Any])?["reason"] is NSNull)
    }

    func testTimeFormatsWriteTheNumberEachDateStrategyReads() throws {
        let t = #"{"aps":{"event":"{{event}}","a":"{{#response_time|reference_date}}","b":"{{#request_time|unix}}","c":"{{#timestamp}}"},"#
            + #""d":"{{reason|or_empty}}"}"#
        let token = String(repeating: "9f", count: 80)
        let lines = [
            #"{"at":"2001-01-01T00:00:01.250Z","kind":"leave.created","request_id":1,"student_id":7,"student_name":"A","request_type":"early","#
                + #""token":"\#(token)"}"#,
            #"{"at":"2025-04-16T10:04:52.125Z","kind":"leave.status","request_id":1,"status":"approved"}"#,
        ]
        let ledger = WorkloadLedger()
        ledger.drain(try ledger.driver(try rules(template: t),
                                       path: StreamTestFiles.write(lines.joined(separator: "\n"), for: self)))
        XCTAssertEqual(ledger.sent.first?.body, #"{"aps":{"event":"update","a":766490692.125,"b":978307201.25,"c":1744797892},"d":""}"#)
    }

    /// A time format on a slot the recipe fills with a field that is no time, or a time in an integer slot
    /// without a format, is refused when the recipe is loaded, naming the slot and what to write instead.
    func testATimeFormatOnAFieldThatIsNoTimeOrATimeWithoutOneIsRefused() throws {
        XCTAssertThrowsError(try rules(template: #"{"a":"{{#staff_id|reference_date}}"}"#)) { error in
            XCTAssertTrue("\(error)".contains("fills slot 'staff_id' of "), "\(error)")
            XCTAssertTrue("\(error)".contains("which has the time format 'reference_date', with a value that is not a time"), "\(error)")
        }
        // A field kept on the request is known by what set it: student_id is an int, request_time a time.
        XCTAssertThrowsError(try rules(template: #"{"a":"{{#student_id|reference_date}}"}"#)) { error in
            XCTAssertTrue("\(error)".contains("fills slot 'student_id' of "), "\(error)")
            XCTAssertTrue("\(error)".contains("with a value that is not a time"), "\(error)")
        }
        XCTAssertThrowsError(try rules(template: #"{"a":"{{#request_time}}"}"#)) { error in
            XCTAssertTrue("\(error)".contains(#"fills integer slot 'request_time' of "#), "\(error)")
        }
        XCTAssertThrowsError(try rules(template: #"{"a":"{{#response_time}}"}"#)) { error in
            XCTAssertTrue("\(error)".contains(#"fills integer slot 'response_time' of "#), "\(error)")
            XCTAssertTrue("\(error)".contains(#"with a time: say which number, "{{#response_time|reference_date}}", |unix or |unix_ms"#), "\(error)")
        }
    }
}
