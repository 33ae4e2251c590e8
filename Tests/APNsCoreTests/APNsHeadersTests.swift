import APNsCore
import XCTest

/// The header table's rows as values: each header's name, keys, sources, carrier and checks, written out here once
/// more so a changed row shows in review; a row without its line here fails the first test.
final class APNsHeadersTests: XCTestCase {
    private struct Row: Equatable {
        var key: String
        var sources: [APNsHeader.Source]
        var variesPerPush: Bool
        var slot: Int?
        var inReportSamples: Bool
    }

    private let expected: [String: Row] = [
        "apns-push-type": Row(key: "push_type", sources: [.profile, .recipeConstant], variesPerPush: false, slot: nil, inReportSamples: false),
        "apns-topic": Row(key: "topic", sources: [.profile, .recipeConstant], variesPerPush: false, slot: nil, inReportSamples: false),
        "apns-priority": Row(key: "priority", sources: [.profile, .recipeConstant, .field, .expression], variesPerPush: true, slot: nil,
                             inReportSamples: false),
        "apns-expiration": Row(key: "expiration_seconds", sources: [.profile, .recipeConstant, .field, .expression], variesPerPush: true, slot: 0,
                               inReportSamples: false),
        "apns-collapse-id": Row(key: "collapse_id", sources: [.profile, .recipeConstant, .field, .expression, .format], variesPerPush: true,
                                slot: 1, inReportSamples: false),
        "apns-id": Row(key: "apns_id", sources: [.field, .expression, .format, .perPush], variesPerPush: true, slot: 2, inReportSamples: true),
    ]

    func testEveryRowIsAsDeclared() {
        XCTAssertEqual(Set(APNsHeaders.all.map(\.name)), Set(expected.keys), "every row has its expectation here")
        for row in APNsHeaders.all {
            XCTAssertEqual(Row(key: row.key, sources: row.sources, variesPerPush: row.variesPerPush, slot: row.slot,
                               inReportSamples: row.inReportSamples), expected[row.name], row.name)
        }
        // Slots are distinct, below the push's storage, and the per-push lists are in slot order.
        let slots = APNsHeaders.all.compactMap(\.slot)
        XCTAssertEqual(Set(slots).count, slots.count)
        XCTAssertTrue(slots.allSatisfy { $0 < PushHeaderValues.capacity })
        XCTAssertEqual(APNsHeaders.perPush.map(\.slot), slots.sorted())
        XCTAssertEqual(Set(APNsHeaders.all.map(\.key)).count, APNsHeaders.all.count, "one key per row")
    }

    func testEachRowsConstantFromAKind() {
        let kind = HeaderConstants([APNsHeaders.pushType: "liveactivity", APNsHeaders.topic: "com.example.a.push-type.liveactivity",
                                    APNsHeaders.priority: 1, APNsHeaders.expiration: 0, APNsHeaders.collapseID: "c-1"])
        let constants = APNsHeaders.all.map { kind.sent($0) }
        XCTAssertEqual(constants, [.text("liveactivity"), .text("com.example.a.push-type.liveactivity"), .number(1), .number(0), .text("c-1"), nil])
        var own = kind
        own.perPush = HeaderSlots(APNsHeaders.perPush)
        XCTAssertEqual(APNsHeaders.all.map { own.sent($0) }, Array(constants.prefix(3)) + [nil, nil, nil],
                       "a header each push carries is no kind's constant")
        XCTAssertEqual(APNsHeaders.collapseID.line(.text("c-1")), "apns-collapse-id: c-1")
    }

    func testARecipesConstantsOverTheRunsEachRowOnceAndOnTheWireInEpochSeconds() {
        let run = HeaderConstants([APNsHeaders.pushType: "alert", APNsHeaders.topic: "com.example.a",
                                   APNsHeaders.expiration: 60, APNsHeaders.collapseID: "run-wide"])
        let rule = HeaderConstants([APNsHeaders.topic: "com.example.b", APNsHeaders.expiration: 0], perPush: HeaderSlots([APNsHeaders.collapseID]))
        let kind = rule.over(run)
        XCTAssertEqual(APNsHeaders.all.map { kind[$0] }, [.text("alert"), .text("com.example.b"), nil, .number(0), nil, nil],
                       "the rule's own value wins, a row it sets not is the run's, a row each push carries is neither")
        XCTAssertEqual(kind.perPush, rule.perPush)
        XCTAssertEqual(run.onWire(startedAtEpochSeconds: 1_800_000_000)[APNsHeaders.expiration], .number(1_800_000_060))
        XCTAssertEqual(kind.onWire(startedAtEpochSeconds: 1_800_000_000)[APNsHeaders.expiration], .number(0), "0 is now or never, 0 on the wire")
        XCTAssertEqual(run.onWire(startedAtEpochSeconds: 1_800_000_000)[APNsHeaders.topic], .text("com.example.a"))
    }

    func testEachValueKindsChecksAndTheirMessages() {
        let collapse = APNsHeaders.collapseID.value, expiration = APNsHeaders.expiration.value
        XCTAssertNil(collapse.refusal(text: Array(String(repeating: "c", count: 64).utf8)))
        XCTAssertEqual(collapse.refusal(text: Array(String(repeating: "c", count: 65).utf8)),
                       "'cccccccccccccccccccccccc…' is 65 bytes; APNs takes at most 64")
        XCTAssertNil(expiration.refusal(seconds: 31_536_000, shown: "31536000"))
        XCTAssertEqual(expiration.refusal(seconds: nil, shown: "soon"), "soon is not a number of seconds from 0 to 31536000")
        XCTAssertEqual(expiration.refusal(constant: .text("x")), "must be a number of seconds from 0 to 31536000")
        XCTAssertEqual(collapse.refusal(constant: nil), "must be text of at most 64 bytes (APNs' limit)")
        XCTAssertNil(collapse.refusal(constant: .text("fine")))
        XCTAssertEqual(APNsHeaders.priority.value.refusal(constant: .number(7)), "must be one of 1, 5, 10")
        XCTAssertNil(APNsHeaders.pushType.value.refusal(text: Array("voip".utf8)))
        let uuid = APNsHeaders.apnsID.value
        XCTAssertNil(uuid.refusal(text: Array("123e4567-e89b-12d3-a456-426614174000".utf8)))
        XCTAssertNil(uuid.refusal(text: Array("123E4567-E89B-12D3-A456-426614174000".utf8)), "hex digits in either case, as APNs takes them")
        XCTAssertEqual(uuid.refusal(text: Array("123e4567e89b12d3a456426614174000".utf8)),
                       "'123e4567e89b12d3a456426614174000' is not a UUID (8-4-4-4-12 hex digits, like 123e4567-e89b-12d3-a456-426614174000)")
        XCTAssertEqual(uuid.refusal(constant: .text("x")), "must be a UUID (8-4-4-4-12 hex digits)")
    }

    func testAUUIDMadePerPushIsCanonicalVersion4AndTheSameForTheSameSeed() {
        var a: [UInt8] = [], b: [UInt8] = [], c: [UInt8] = []
        a.reserveCapacity(36)
        APNsHeaders.apnsID.value.generate(seed: 7, into: &a)
        APNsHeaders.apnsID.value.generate(seed: 7, into: &b)
        APNsHeaders.apnsID.value.generate(seed: 8, into: &c)
        let text = String(decoding: a, as: UTF8.self)
        XCTAssertNil(APNsHeaders.apnsID.value.refusal(text: a), text)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
        XCTAssertEqual(Array(text)[14], "4", "version 4: \(text)")
        XCTAssertTrue("89ab".contains(Array(text)[19]), "variant 10xx: \(text)")
        XCTAssertEqual(text, text.lowercased())
        let capacity = a.capacity
        APNsHeaders.apnsID.value.generate(seed: 9, into: &a)
        XCTAssertEqual(a.capacity, capacity, "written into the same storage")
    }

    func testAPushsValuesAreClearedKeepingTheirRoom() {
        var values = PushHeaderValues()
        values.update(APNsHeaders.collapseID) { $0.text = Array("order-7".utf8) }
        values.update(APNsHeaders.expiration) { $0 = PushHeaderValue(seconds: 60, fromSend: true) }
        XCTAssertEqual(values[APNsHeaders.collapseID], PushHeaderValue(text: "order-7"))
        XCTAssertTrue(values[APNsHeaders.expiration].isPresent)
        values.clear()
        for row in APNsHeaders.perPush { XCTAssertFalse(values[row].isPresent, row.name) }
        XCTAssertGreaterThanOrEqual(values[APNsHeaders.collapseID].text.capacity, 7)
    }
}
