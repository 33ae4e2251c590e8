import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// `collapse_id` and `expiration_seconds` read from an event's fields: a field's value or a format over fields,
/// carried by each push (its kind's header list then has neither), left out when a value is absent, and a
/// value APNs would refuse is a bad line.
final class RecipeHeaderValueTests: RecipeScratchCase {
    private let activity = String(repeating: "c3", count: 32)

    override var templates: [String: String] { ["alert.json": #"{"aps":{"alert":{"title":"{{status}}"}}}"#] }

    private func recipe(headers: String) -> String {
        """
        recipe: deliveries
        events:
          created:
            match: {kind: created}
            fields: {delivery_id: string, store: int, token: token}
            create: delivery
            key: delivery_id
            token: token
            set: [store]
          status:
            match: {kind: status}
            fields: {delivery_id: string, status: string, ttl: int?, note: string?}
            push:
              to: {entity: delivery, key: delivery_id}
              template: alert.json
              push_type: alert
        \(headers.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
        """
    }

    private func replay(_ yaml: String, statuses: [String]) throws -> (Recipe, WorkloadLedger) {
        let recipe = try RecipeLoader.load(yaml: yaml, file: file)
        var lines = [#"{"at":"2025-01-01T00:00:00Z","kind":"created","delivery_id":"d1","store":42,"token":"\#(activity)"}"#]
        for (i, rest) in statuses.enumerated() {
            lines.append(#"{"at":"2025-01-01T00:01:0\#(i)Z","kind":"status","delivery_id":"d1",\#(rest)}"#)
        }
        return (recipe, try WorkloadLedger.replay(recipe, lines: lines, for: self))
    }

    func testAFormatAndAFieldAreWrittenIntoEachPushAndTheKindCarriesNeither() throws {
        let (recipe, ledger) = try replay(recipe(headers: "collapse_id: \"delivery-{{delivery_id}}-{{status}}-{{delivery.store}}\"\nexpiration_seconds: ttl"),
                                          statuses: [#""status":"moving","ttl":600"#, #""status":"near","ttl":0"#, #""status":"delivered""#])
        XCTAssertEqual(ledger.sent.map(\.collapseID), ["delivery-d1-moving-42", "delivery-d1-near-42", "delivery-d1-delivered-42"])
        XCTAssertEqual(ledger.sent.map(\.expirationSeconds), [600, 0, -1], "an absent ttl sends no apns-expiration")
        guard case let .fixed(set) = recipe.events[1].pushes[0].kind else { return XCTFail("one push kind") }
        let own = recipe.pushKinds[Int(set)]
        XCTAssertEqual(own.perPush, HeaderSlots([APNsHeaders.collapseID, APNsHeaders.expiration]))
        XCTAssertNil(own[APNsHeaders.collapseID])
        XCTAssertEqual(ledger.sent.map(\.kind), [set, set, set])
    }

    func testAnAbsentValueLeavesTheCollapseIDOutAndADefaultFillsIt() throws {
        let (_, absent) = try replay(recipe(headers: "collapse_id: \"note-{{note}}\""),
                                     statuses: [#""status":"moving","note":"gate""#, #""status":"near""#])
        XCTAssertEqual(absent.sent.map(\.collapseID), ["note-gate", ""])
        let (_, defaulted) = try replay(recipe(headers: "collapse_id: {from: note, default: none}\nexpiration_seconds: {from: ttl, default: 3600}"),
                                        statuses: [#""status":"moving","note":"gate","ttl":5"#, #""status":"near""#])
        XCTAssertEqual(defaulted.sent.map(\.collapseID), ["gate", "none"])
        XCTAssertEqual(defaulted.sent.map(\.expirationSeconds), [5, 3600])
    }

    func testAValueAPNsWouldRefuseIsABadLineNamingTheHeader() throws {
        let long = String(repeating: "x", count: 70)
        let (_, ledger) = try replay(recipe(headers: "collapse_id: {from: note}\nexpiration_seconds: ttl"),
                                     statuses: [#""status":"moving","note":"\#(long)""#, #""status":"near","ttl":-5"#, #""status":"ok","note":"fine""#])
        XCTAssertEqual(ledger.sent.map(\.collapseID), ["fine"])
        XCTAssertEqual(ledger.events.invalidTotal, 2)
        XCTAssertEqual(ledger.events.badLineSamples.map(\.detail), [
            "line 2: bad value in field 'collapse_id': 'xxxxxxxxxxxxxxxxxxxxxxxx…' is 70 bytes; APNs takes at most 64",
            "line 3: bad value in field 'expiration_seconds': -5 is not a number of seconds from 0 to 31536000",
        ])
    }

    func testAPerPushHeaderReplacesTheProfilesConstantInItsKind() {
        var config = RunConfig(name: "deliveries", profilePath: "p.yaml",
                               workload: RunConfig.Workload(name: "deliveries", stream: "s.ndjson", recipe: "r.yaml", bundleID: "com.example.app"))
        config.payload.collapseID = "profile-wide"
        config.payload.expiration = .seconds(60)
        var own = HeaderConstants()
        own.perPush.insert(APNsHeaders.collapseID)
        let kinds = config.pushKinds([[HeaderConstants(), own]])
        XCTAssertEqual(kinds.map { $0.headers[APNsHeaders.collapseID] }, ["profile-wide", nil])
        XCTAssertEqual(kinds.map { $0.headers.perPush.contains(APNsHeaders.collapseID) }, [false, true])
        XCTAssertEqual(kinds.map { $0.headers[APNsHeaders.expiration] }, [60, 60], "the expiration stays the profile's where the push carries none")
    }
}
