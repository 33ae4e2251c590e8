import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// The shipped recordings in profiles/streams/ read as their recipes expect: every line parses, times never
/// go backwards, and each app's recording reaches the paths its recipe has (priorities, fan-out, dead tokens).
final class ShippedStreamsTests: XCTestCase {
    /// Every line of order-changes.ndjson parses in time order; each activity registers once and ends once;
    /// order-changes.dead-tokens lists tokens the recording registers.
    func testOrderChangesRecordingIsOrderedAndItsDeadTokensAreItsOwn() throws {
        let reader = try EventStreamReader(path: RepoFiles.stream("order-changes"))
        var kinds: [String: Int] = [:]
        var tokens = Set<String>()
        var last = Int64.min
        while let event = try reader.next() {
            guard case let .record(line, at, kind, fields) = event else { return XCTFail("bad line: \(event)") }
            XCTAssertGreaterThanOrEqual(at, last, "line \(line)")
            last = at
            kinds[kind, default: 0] += 1
            if kind == "device.register" { tokens.insert(try fields.string("push_token")) }
        }
        XCTAssertEqual(reader.linesRead, 6000)
        XCTAssertEqual(kinds["device.register"], 360)
        XCTAssertEqual(kinds["activity.end"], 360, "every activity ends")
        XCTAssertEqual(kinds["order.change"], 6000 - 720)
        XCTAssertEqual(tokens.count, 360, "a restarted activity has a new token")
        let dead = try String(contentsOfFile: RepoFiles.path("profiles/streams/order-changes.dead-tokens"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        XCTAssertFalse(dead.isEmpty)
        XCTAssertEqual(dead.filter { !tokens.contains($0) }.count, 0, "dead tokens are tokens the recording registers")
    }

    /// Replays a shipped recording through its shipped recipe; returns the ledger, the rules and the bytes.
    func replay(_ workload: String) throws -> (WorkloadLedger, RecipeRules, String) {
        let ledger = WorkloadLedger()
        let rules = try ShippedRecipes.rules(workload)
        ledger.drain(try ledger.driver(rules, path: RepoFiles.stream(workload)))
        return (ledger, rules, try String(contentsOfFile: RepoFiles.stream(workload), encoding: .utf8))
    }

    func testNotifyRecordingsAreValidWithMixedTypesPrioritiesAndAwkwardText() throws {
        for workload in ["cdbl-leave", "ksr-cranes"] {
            let (ledger, _, text) = try replay(workload)
            XCTAssertEqual(ledger.badLines, [], workload)
            ledger.assertBalanced(linesRead: 1500)
            XCTAssertEqual(ledger.outcomes.count, 1500, workload)
            let noToken = ledger.count(.notSent(.noToken))
            XCTAssertGreaterThan(noToken, 0, workload)
            XCTAssertLessThan(noToken, 75, workload)
            XCTAssertEqual(ledger.sent.count + noToken, 1500)
            let priorities = Dictionary(grouping: ledger.sent, by: \.priority).mapValues(\.count)
            XCTAssertGreaterThan(priorities[.immediate] ?? 0, 300, workload)
            XCTAssertGreaterThan(priorities[.powerAware] ?? 0, 300, workload)
            let typeKey = workload == "ksr-cranes" ? "notificationType" : "type"
            let types = Set(ledger.sent.compactMap { $0.json[typeKey] as? String })
            XCTAssertEqual(types, AlertTestSupport.knownTypes[workload], workload)
            // Decisions go at 10, submissions at 5.
            for push in ledger.sent {
                let type = push.json[typeKey] as? String ?? ""
                if type.hasSuffix("APPROVED") || type.hasSuffix("REJECTED") { XCTAssertEqual(push.priority, .immediate, type) }
                if type.hasSuffix("SUBMITTED") { XCTAssertEqual(push.priority, .powerAware, type) }
            }
            for awkward in [#"\""#, #"\\"#] { XCTAssertTrue(text.contains(awkward), "\(workload): \(awkward)") }
            XCTAssertTrue(text.unicodeScalars.contains { $0.properties.isEmojiPresentation }, workload)
            XCTAssertTrue(text.unicodeScalars.contains { $0.value >= 0x400 && !$0.properties.isEmojiPresentation }, workload)
        }
    }

    func testEverdayRecordingFansOutPerFamilyAndRotatesTokens() throws {
        let (ledger, workload, text) = try replay("everday-approvals")
        XCTAssertEqual(ledger.badLines, [])
        ledger.assertBalanced(linesRead: 1200)
        let kinds = Dictionary(grouping: ledger.applied, by: \.kind).mapValues(\.count)
        XCTAssertGreaterThan(kinds["parent.device"] ?? 0, 700)
        XCTAssertGreaterThan(kinds["parent.removed"] ?? 0, 0)
        XCTAssertGreaterThan(kinds["account.registered"] ?? 0, 250)
        XCTAssertGreaterThan(workload.retiredTokens, 100, "some devices get a new token")
        // A few hundred families; most registrations reach two or more parent devices, a few reach none.
        let families = Set(text.split(separator: "\n").compactMap { line in
            line.range(of: #""family_id":"#).map { line[$0.upperBound...].prefix { $0.isNumber } }
        })
        XCTAssertGreaterThan(families.count, 200)
        let registrations = ledger.applied.filter { $0.kind == "account.registered" }.map(\.pushes)
        XCTAssertGreaterThan(registrations.filter { $0 >= 2 }.count, registrations.count / 2)
        let none = ledger.count(.notSent(.noRecipients))
        XCTAssertGreaterThan(none, 0, "kids who register before their parents have a device")
        XCTAssertLessThan(none, registrations.count / 10)
        XCTAssertEqual(ledger.sent.count + none, ledger.outcomes.count)
        XCTAssertTrue(ledger.sent.allSatisfy { $0.json["link"] as? String == "/settings/users" })
    }
}
