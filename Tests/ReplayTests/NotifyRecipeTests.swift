import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

enum AlertTestSupport {
    static let repo = RepoFiles.root

    /// The notification types each alert app sends (its recipe's `type: {one_of: …}`): CDBL's follow the
    /// app's leave statuses and the approval chain's rejection; KSR Cranes' are `AppNotification.NotificationType`'s.
    static let knownTypes: [String: Set<String>] = [
        "cdbl-leave": ["LEAVE_SUBMITTED", "LEAVE_PENDING", "LEAVE_APPROVED", "LEAVE_REJECTED", "LEAVE_CANCELLED"],
        "ksr-cranes": [
            "WORK_ENTRY_SUBMITTED", "WORK_ENTRY_APPROVED", "WORK_ENTRY_REJECTED",
            "LEAVE_REQUEST_SUBMITTED", "LEAVE_REQUEST_APPROVED", "LEAVE_REQUEST_REJECTED",
        ],
    ]

    static func token(_ n: Int) -> String { String(repeating: String(format: "%02x", n % 256), count: 32) }
}

/// The shipped alert recipes of the CDBL and KSR Cranes apps (profiles/recipes/cdbl-leave.yaml, ksr-cranes.yaml):
/// each `notify` line is one alert to the token it names.
final class NotifyRecipeTests: XCTestCase {
    func make(_ lines: [String], workload: String = "cdbl-leave", priority: Priority = .powerAware,
              badLines: RunConfig.Workload.BadLinePolicy = .skip, ledger: WorkloadLedger) throws -> WorkloadDriver {
        let path = StreamTestFiles.write(lines.joined(separator: "\n") + "\n", for: self)
        let rules = try ShippedRecipes.rules(workload, priority: priority)
        return try ledger.driver(rules, path: path, badLines: badLines, priority: priority)
    }

    func notify(_ at: String, token: String? = AlertTestSupport.token(1), type: String = "LEAVE_APPROVED", title: String = "Leave Approved",
                body: String = "Your casual leave request has been approved.", priority: Int? = nil, extra: String = "") -> String {
        var line = NDJSONLine()
        line.string("at", "2025-02-02T04:\(at)Z")
        line.string("kind", "notify")
        line.string("token", token)
        line.string("type", type)
        line.string("title", title)
        line.string("body", body)
        line.string("category", "LEAVE_STATUS")
        if let priority { line.int("priority", priority) }
        var text = String(decoding: line.line.dropLast(2), as: UTF8.self)  // without "}\n"
        text += extra + "}"
        return text
    }

    func testPriorityIsPerEventAndFallsBackToTheProfile() throws {
        let ledger = WorkloadLedger()
        let w = try make([notify("00:00", priority: 10), notify("00:01", priority: 5), notify("00:02")], priority: .powerAware, ledger: ledger)
        ledger.drain(w)
        XCTAssertEqual(ledger.sent.map(\.priority), [.immediate, .powerAware, .powerAware])
        XCTAssertEqual(ledger.outcomes.map(\.priority), [.immediate, .powerAware, .powerAware])

        let ledger10 = WorkloadLedger()
        ledger10.drain(try make([notify("00:02")], priority: .immediate, ledger: ledger10))
        XCTAssertEqual(ledger10.sent.map(\.priority), [.immediate])
    }

    func testPayloadCarriesTheEventsTextEscapedAndCustomKeysBesideAps() throws {
        let ledger = WorkloadLedger()
        let title = "Leave \"Approved\" ✅"
        let body = "Path C:\\hr\\ok — ছুটি অনুমোদিত 🎉\nnew line"
        let w = try make([notify("00:00", title: title, body: body, priority: 10,
                                 extra: #","target_id":"123e4567-e89b","thread_id":"leave-1","badge":3"#)], ledger: ledger)
        ledger.drain(w)
        XCTAssertEqual(ledger.sent.count, 1)
        let sent = ledger.sent[0]
        XCTAssertEqual(sent.alert["title"] as? String, title)
        XCTAssertEqual(sent.alert["body"] as? String, body)
        XCTAssertEqual(sent.aps["category"] as? String, "LEAVE_STATUS")
        XCTAssertEqual(sent.aps["thread-id"] as? String, "leave-1")
        XCTAssertEqual(sent.aps["badge"] as? Int, 3)
        XCTAssertEqual(sent.aps["sound"] as? String, "default")
        XCTAssertEqual(sent.json["type"] as? String, "LEAVE_APPROVED")
        XCTAssertEqual(sent.json["targetId"] as? String, "123e4567-e89b")
        XCTAssertEqual(sent.json["createdAt"] as? String, "2025-02-02T04:00:00Z")
        XCTAssertEqual(sent.token, AlertTestSupport.token(1))
        XCTAssertEqual(sent.recordedMillis, Timestamp.parse("2025-02-02T04:00:00Z"))
        // Absent optional fields are null, and the payload is still JSON.
        let plain = WorkloadLedger()
        plain.drain(try make([notify("00:00")], ledger: plain))
        XCTAssertTrue(plain.sent[0].aps["badge"] is NSNull)
        XCTAssertTrue(plain.sent[0].json["targetId"] is NSNull)
    }

    func testKSRTemplateUsesTheAppsNotificationTypeKey() throws {
        let ledger = WorkloadLedger()
        let w = try make([notify("00:00", type: "WORK_ENTRY_APPROVED", title: "Work entry approved ✅", priority: 10)],
                         workload: "ksr-cranes", ledger: ledger)
        ledger.drain(w)
        XCTAssertEqual(ledger.sent.first?.json["notificationType"] as? String, "WORK_ENTRY_APPROVED")
        XCTAssertTrue(ledger.badLines.isEmpty)
    }

    func testBadTypeAndBadPriorityAreBadLinesWithTheirLineNumbers() throws {
        let ledger = WorkloadLedger()
        let lines = [
            notify("00:00", priority: 10),                                  // 1 ok
            notify("00:01", type: "WORK_ENTRY_APPROVED"),                    // 2 a KSR type in a CDBL stream
            notify("00:02", priority: 7),                                   // 3 priority not 5 or 10
            notify("00:03", extra: #","priority":"10""#),                    // 4 priority as a string
            notify("00:04", token: "not-hex"),                              // 5 token not hex
            notify("00:05", title: ""),                                     // 6 empty title
            #"{"at":"2025-02-02T04:00:06Z","kind":"notify","type":"LEAVE_APPROVED","title":"t","body":"b"}"#,  // 7 no token key
            #"{"at":"2025-02-02T04:00:07Z","kind":"leave.created","token":"ab"}"#,                            // 8 unknown kind
            notify("00:08", extra: #","badge":-1"#),                         // 9 negative badge
            notify("00:09", priority: 5),                                   // 10 ok
        ]
        let w = try make(lines, ledger: ledger)
        ledger.drain(w)
        // Line 7 has no `token` key at all: the recipe's token is `nullable` (always sent, null when the user
        // has no device), so a line without the key is a bad line, unlike a null token (no_token).
        XCTAssertEqual(ledger.badLines.map(\.line), [2, 3, 4, 5, 6, 7, 8, 9])
        XCTAssertEqual(ledger.badLines.map(\.cause),
                       ["bad_value", "bad_value", "wrong_type", "bad_value", "bad_value", "missing_field", "unknown_kind", "bad_value"])
        XCTAssertEqual(ledger.badLines[0].detail,
                       "line 2: bad value in field 'type': 'WORK_ENTRY_APPROVED' is not one of LEAVE_APPROVED, LEAVE_CANCELLED, LEAVE_PENDING, LEAVE_REJECTED, "
                           + "LEAVE_SUBMITTED")
        XCTAssertEqual(ledger.badLines[1].detail, "line 3: bad value in field 'priority': '7' is not one of 10, 5")
        XCTAssertTrue(ledger.badLines[3].detail.contains("field 'token'"), ledger.badLines[3].detail)
        XCTAssertTrue(ledger.badLines[5].detail.contains("'token'"), ledger.badLines[5].detail)
        XCTAssertEqual(ledger.badLines[7].detail, "line 9: bad value in field 'badge': -1 is below 0")
        XCTAssertEqual(ledger.notSent, ["bad_line": 8])
        XCTAssertEqual(ledger.sent.count, 2)
        XCTAssertEqual(ledger.count(.notSent(.badLine)), 8)
        ledger.assertBalanced(linesRead: lines.count)
    }

    func testNullOrEmptyTokenIsAPlannedPushNotSent() throws {
        let ledger = WorkloadLedger()
        let lines = [notify("00:00", token: nil, priority: 10), notify("00:01", token: "", priority: 5), notify("00:02")]
        ledger.drain(try make(lines, ledger: ledger))
        XCTAssertEqual(ledger.sent.count, 1)
        XCTAssertEqual(ledger.count(.notSent(.noToken)), 2)
        XCTAssertEqual(ledger.outcomes.prefix(2).map(\.priority), [.immediate, .powerAware], "not-sent pushes keep their priority")
        XCTAssertEqual(ledger.producedPushes, 3)
        ledger.assertBalanced(linesRead: 3)
    }

    func testStopPolicyStopsAtTheFirstBadLine() throws {
        let ledger = WorkloadLedger()
        let lines = [notify("00:00"), "not json", notify("00:02")]
        let w = try make(lines, badLines: .stop, ledger: ledger)
        ledger.drain(w)
        XCTAssertEqual(w.stopError?.line, 2)
        XCTAssertEqual(w.stopError?.cause.key, "not_json")
        XCTAssertEqual(ledger.sent.count, 1)
        XCTAssertEqual(ledger.eventsRead, 2)
    }

    func testASlotTheRecipeCannotFillIsRefusedAndTheRecipesAreNamedForTheirApps() throws {
        XCTAssertThrowsError(try ShippedRecipes.withTemplate("cdbl-leave", #"{"aps":{"alert":{"title":"{{title}}","body":"{{student_name}}"}}}"#,
            for: self)) { error in
            XCTAssertTrue("\(error)".contains("has no source for slot 'student_name' of "), "\(error)")
            XCTAssertTrue("\(error)".contains("cdbl-leave.yaml:"), "the recipe's file and line: \(error)")
        }
        for name in ["cdbl-leave", "ksr-cranes", "everday-approvals"] {
            XCTAssertTrue(RepoFiles.recipeNames.contains(name), name)
            XCTAssertEqual(try ShippedRecipes.load(name).name, name, "the recipe's name is its file's")
        }
    }

    func testEveryKnownTypeOfEachWorkloadIsAccepted() throws {
        for (workload, types) in AlertTestSupport.knownTypes {
            let ledger = WorkloadLedger()
            let lines = types.sorted().enumerated().map { i, type in notify(String(format: "%02d:00", i), type: type, priority: 10) }
            ledger.drain(try make(lines, workload: workload, ledger: ledger))
            XCTAssertTrue(ledger.badLines.isEmpty, "\(workload): \(ledger.badLines)")
            XCTAssertEqual(ledger.sent.count, types.count)
        }
    }
}
