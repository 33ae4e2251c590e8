import APNsCore
import Foundation
@testable import Replay
import XCTest

/// The shipped everday-approvals recipe (profiles/recipes/everday-approvals.yaml) over small recordings.
final class EverdayApprovalsRecipeTests: XCTestCase {
    /// The rules of the last `make`, for their retired-token count.
    var rules: RecipeRules!

    func make(_ lines: [String], badLines: RunConfig.Workload.BadLinePolicy = .skip, ledger: WorkloadLedger) throws -> WorkloadDriver {
        let path = StreamTestFiles.write(lines.joined(separator: "\n") + "\n", for: self)
        rules = try ShippedRecipes.rules("everday-approvals")
        return try ledger.driver(rules, path: path, badLines: badLines)
    }

    var minute = 0
    func at() -> String {
        minute += 1
        return String(format: "2025-03-03T%02d:%02d:00Z", minute / 60, minute % 60)
    }

    func device(_ id: String, _ token: String, account: Int = 1, family: Int? = nil) -> String {
        let familyField = family.map { #","family_id":\#($0)"# } ?? ""
        return #"{"at":"\#(at())","kind":"parent.device","device_id":"\#(id)","push_token":"\#(token)","account_id":\#(account)\#(familyField)}"#
    }

    func removed(_ id: String) -> String { #"{"at":"\#(at())","kind":"parent.removed","device_id":"\#(id)"}"# }

    func registered(_ userID: Int, _ username: String, first: String? = nil, last: String? = nil, family: Int? = nil) -> String {
        var line = NDJSONLine()
        line.string("at", at())
        line.string("kind", "account.registered")
        line.int("user_id", userID)
        line.string("username", username)
        if let first { line.string("first_name", first) }
        if let last { line.string("last_name", last) }
        if let family { line.int("family_id", family) }
        return String(decoding: line.line.dropLast(), as: UTF8.self)
    }

    let t = (1...9).map { AlertTestSupport.token($0) }

    func testARegistrationFansOutToEveryParentDevice() throws {
        let ledger = WorkloadLedger()
        let lines = [
            device("A", t[1], account: 10), device("B", t[2], account: 10), device("C", t[3], account: 11),
            registered(9001, "mia_p", first: "Zoë \"Z\"", last: "O'Brien 🦖"),
        ]
        let w = try make(lines, ledger: ledger)
        ledger.drain(w)
        XCTAssertEqual(ledger.sent.map(\.token), [t[1], t[2], t[3]], "every parent device, in registration order")
        XCTAssertEqual(Set(ledger.sent.map(\.body)).count, 1, "one payload for the whole fan-out")
        let push = ledger.sent[0]
        XCTAssertEqual(push.alert["title"] as? String, "Account approval requested")
        XCTAssertEqual(push.json["link"] as? String, "/settings/users")
        XCTAssertEqual(push.json["userId"] as? Int, 9001)
        XCTAssertEqual(push.json["username"] as? String, "mia_p")
        XCTAssertTrue((push.alert["body"] as? String)?.hasPrefix("Zoë \"Z\" O'Brien 🦖 (@mia_p)") ?? false, "\(push.alert)")
        XCTAssertEqual(push.priority, .immediate)
        XCTAssertEqual(ledger.applied.map(\.pushes), [0, 0, 0, 3])
        ledger.assertBalanced(linesRead: lines.count)
    }

    func testANewTokenReplacesTheOldOneWhichIsNeverUsedAgain() throws {
        let ledger = WorkloadLedger()
        let lines = [
            device("A", t[1]), device("B", t[2]),
            registered(1, "kid1"),
            device("A", t[3]),             // A reinstalled the app: new token
            registered(2, "kid2"),
            device("B", t[4]), device("A", t[5]),
            registered(3, "kid3"),
        ]
        let w = try make(lines, ledger: ledger)
        ledger.drain(w)
        XCTAssertEqual(ledger.sent.map(\.token), [t[1], t[2], t[3], t[2], t[5], t[4]])
        XCTAssertEqual(rules.retiredTokens, 3)
        XCTAssertEqual(ledger.applied.last?.pushes, 2, "two parent devices, however many tokens they had")
        // Once replaced, a token never appears again.
        let firstReplacement = ledger.sent.firstIndex { $0.token == t[3] }!
        XCTAssertFalse(ledger.sent[firstReplacement...].contains { $0.token == t[1] })
        ledger.assertBalanced(linesRead: lines.count)
    }

    func testTheFanOutIsTakenWhenTheRegistrationIsRead() throws {
        // The engine pulls one push at a time; a registration's recipients are fixed when it is read,
        // whatever happens to the registry afterwards.
        let ledger = WorkloadLedger()
        let lines = [device("A", t[1]), device("B", t[2]), registered(1, "kid1"), removed("A"), device("B", t[3]), registered(2, "kid2")]
        let w = try make(lines, ledger: ledger)
        var push = OutgoingPush()
        XCTAssertEqual(w.next(into: &push), .push)
        XCTAssertEqual(push.deviceToken, t[1])
        XCTAssertEqual(w.next(into: &push), .push)
        XCTAssertEqual(push.deviceToken, t[2])
        // The later lines changed the registry: the next registration reaches B alone, at its new token.
        XCTAssertEqual(w.next(into: &push), .push)
        XCTAssertEqual(push.deviceToken, t[3])
        XCTAssertEqual(w.next(into: &push), .end)
    }

    func testAFamilysRegistrationGoesToThatFamilysParentsAndOneWithoutAFamilyToAll() throws {
        let ledger = WorkloadLedger()
        let lines = [
            device("A", t[1], account: 1, family: 7), device("B", t[2], account: 2, family: 7),
            device("C", t[3], account: 3, family: 8), device("D", t[4], account: 4),
            registered(1, "kid7", family: 7),
            registered(2, "kid8", family: 8),
            registered(3, "kid9", family: 9),          // no parent device in family 9 yet
            device("C", t[5], account: 3, family: 9),  // C moves to family 9 with a new token
            registered(4, "kid9b", family: 9),
            registered(5, "anyone"),                   // no family: every parent device
        ]
        let w = try make(lines, ledger: ledger)
        ledger.drain(w)
        XCTAssertEqual(ledger.sent.map(\.token), [t[1], t[2], t[3], t[5], t[1], t[2], t[5], t[4]])
        XCTAssertEqual(ledger.count(.notSent(.noRecipients)), 1)
        XCTAssertEqual(ledger.applied.map(\.pushes), [0, 0, 0, 0, 2, 1, 1, 0, 1, 4])
        ledger.assertBalanced(linesRead: lines.count)

        let bad = WorkloadLedger()
        bad.drain(try make([#"{"at":"2025-03-03T00:00:00Z","kind":"account.registered","user_id":1,"username":"x","family_id":"7"}"#], ledger: bad))
        XCTAssertEqual(bad.badLines.map(\.cause), ["wrong_type"])
    }

    func testZeroParentsIsOnePlannedPushNotSent() throws {
        let ledger = WorkloadLedger()
        let lines = [registered(1, "early_kid", first: "Aroha"), device("A", t[1]), removed("A"), registered(2, "late_kid")]
        ledger.drain(try make(lines, ledger: ledger))
        XCTAssertTrue(ledger.sent.isEmpty)
        XCTAssertEqual(ledger.count(.notSent(.noRecipients)), 2)
        XCTAssertEqual(NotSentCause.noRecipients.rawValue, "no_recipients")
        XCTAssertEqual(ledger.applied.map(\.pushes), [1, 0, 0, 1])
        ledger.assertBalanced(linesRead: lines.count)
    }

    func testRemovedDevicesAreNotPushedTo() throws {
        let ledger = WorkloadLedger()
        let lines = [device("A", t[1]), device("B", t[2]), device("C", t[3]), removed("B"), registered(1, "kid")]
        ledger.drain(try make(lines, ledger: ledger))
        XCTAssertEqual(ledger.sent.map(\.token), [t[1], t[3]])
    }

    func testDisplayNameFallsBackToWhatTheAccountGave() throws {
        let ledger = WorkloadLedger()
        let lines = [device("A", t[1]), registered(1, "only_first", first: "Mia"), registered(2, "no_name"),
                     registered(3, "only_last", last: "Nguyễn"), registered(4, "empty_first", first: "", last: "")]
        ledger.drain(try make(lines, ledger: ledger))
        let bodies = ledger.sent.map { $0.alert["body"] as? String ?? "" }
        XCTAssertEqual(bodies.map { String($0.prefix { $0 != "(" }) }, ["Mia ", "no_name ", "Nguyễn ", "empty_first "])
    }

    func testBadLinesAreNamedWithTheirLineNumbers() throws {
        let ledger = WorkloadLedger()
        let lines = [
            device("A", t[1]),                                                                         // 1 ok
            device("B", "xyz"),                                                                        // 2 token not hex
            #"{"at":"2025-03-03T00:02:30Z","kind":"parent.device","device_id":"C","push_token":"\#(t[2])"}"#,  // 3 no account_id
            removed("nobody"),                                                                         // 4 unknown device
            registered(1, ""),                                                                         // 5 empty username
            #"{"at":"2025-03-03T00:04:30Z","kind":"account.registered","user_id":"7","username":"x"}"#,       // 6 user_id a string
            #"{"at":"2025-03-03T00:04:40Z","kind":"kid.login","user_id":7}"#,                                 // 7 unknown kind
            #"{"at":"2025-03-03T00:00:00Z","kind":"account.registered","user_id":8,"username":"x"}"#,          // 8 time backwards
            registered(9, "ok_kid"),                                                                   // 9 ok
        ]
        let w = try make(lines, ledger: ledger)
        ledger.drain(w)
        XCTAssertEqual(ledger.badLines.map(\.line), [2, 3, 4, 5, 6, 7, 8])
        XCTAssertEqual(ledger.badLines.map(\.cause),
                       ["bad_value", "missing_field", "bad_value", "bad_value", "wrong_type", "unknown_kind", "time_backwards"])
        XCTAssertTrue(ledger.badLines[0].detail.contains("push_token"), ledger.badLines[0].detail)
        // The recipe names the entity (its name is the recipe's choice): "… field 'device_id': ENTITY 'nobody' does not exist …".
        XCTAssertTrue(ledger.badLines[2].detail.hasPrefix("line 4: bad value in field 'device_id': "), ledger.badLines[2].detail)
        XCTAssertTrue(ledger.badLines[2].detail.hasSuffix(" 'nobody' does not exist (no earlier line created it)"), ledger.badLines[2].detail)
        XCTAssertEqual(ledger.sent.map(\.token), [t[1]], "the bad device line registered nothing")
        XCTAssertEqual(ledger.count(.notSent(.badLine)), 7)
        ledger.assertBalanced(linesRead: lines.count)
    }

    func testStopPolicyStopsInsteadOfFanningOutFurther() throws {
        let ledger = WorkloadLedger()
        let lines = [device("A", t[1]), "{", registered(1, "kid")]
        let w = try make(lines, badLines: .stop, ledger: ledger)
        ledger.drain(w)
        XCTAssertEqual(w.stopError?.line, 2)
        XCTAssertTrue(ledger.sent.isEmpty)
    }

    func testASlotTheRecipeCannotFillIsRefused() throws {
        XCTAssertThrowsError(try ShippedRecipes.withTemplate("everday-approvals", #"{"aps":{"alert":"{{store_id}}"}}"#, for: self)) { error in
            XCTAssertTrue("\(error)".contains("has no source for slot 'store_id' of "), "\(error)")
            XCTAssertTrue("\(error)".contains("(the event's fields: user_id, username, first_name, last_name, family_id)"), "\(error)")
        }
    }
}
