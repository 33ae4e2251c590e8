import APNsCore
import Foundation
@testable import Replay
import XCTest

final class LeaveRequestWorkloadTests: XCTestCase {
    static let template: PayloadTemplate = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("profiles/templates/leave-requests.json")
        return try! PayloadTemplate(json: String(contentsOf: url, encoding: .utf8), source: url.path)
    }()

    /// A status change before the token arrives is planned and not sent (no_token); after the late token
    /// (the seed's PUT /live-activity) the next change is sent to it.
    func testLateTokenStatusChangesBeforeItAreNotSentAfterItAreSent() throws {
        let token = String(repeating: "9f", count: 80)
        let lines = [
            #"{"at":"2025-04-16T10:00:00Z","kind":"leave.created","request_id":22,"student_id":1427,"student_name":"John Doe","request_type":"early","reason":"Doctor appointment","activity_id":"E0D62919-9EF2-49C6-A108-85A227AF3904","token":null}"#,
            #"{"at":"2025-04-16T10:01:00Z","kind":"leave.status","request_id":22,"status":"pending","staff_id":101,"staff_name":"Jane Smith"}"#,
            #"{"at":"2025-04-16T10:02:00Z","kind":"leave.token","request_id":22,"activity_id":"E0D62919-9EF2-49C6-A108-85A227AF3904","token":"\#(token)"}"#,
            #"{"at":"2025-04-16T10:04:52Z","kind":"leave.status","request_id":22,"status":"approved","staff_id":101,"staff_name":"Jane Smith"}"#,
            #"{"at":"2025-04-16T12:00:00Z","kind":"leave.status","request_id":22,"status":"finished"}"#,
        ]
        let path = StreamTestFiles.write(lines.joined(separator: "\n"), for: self)
        let ledger = WorkloadLedger()
        let rules = try LeaveRequestWorkload(template: Self.template, templateSource: "t", priority: .immediate)
        ledger.drain(try ledger.driver(rules, path: path))
        XCTAssertEqual(ledger.sent.map(\.token), [token, token])
        let sent = ledger.sent.map(\.json)
        XCTAssertEqual(ledger.notSent, ["no_token": 1])
        XCTAssertEqual(sent.count, 2)
        let aps = sent.map { $0["aps"] as? [String: Any] ?? [:] }
        XCTAssertEqual(aps.map { $0["event"] as? String }, ["update", "end"])
        XCTAssertEqual(aps.map { ($0["content-state"] as? [String: Any])?["status"] as? String }, ["approved", "finished"])
        XCTAssertEqual(aps[0]["timestamp"] as? Int, 1_744_797_892)
        XCTAssertEqual((aps[0]["content-state"] as? [String: Any])?["responseTime"] as? String, "2025-04-16T10:04:52Z")
        XCTAssertTrue((aps[1]["content-state"] as? [String: Any])?["respondedBy"] is NSNull, "no staff name: null, as the app's optional")
        XCTAssertEqual(ledger.planned, 3)
        ledger.assertBalanced(linesRead: lines.count)
    }
}
