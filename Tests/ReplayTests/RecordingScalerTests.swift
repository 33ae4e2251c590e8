import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// ``RecordingScaler``: which fields a recipe's recording clones, the copies' order and bytes, and the scaled
/// recording replayed through the recipe: the recorded distributions, K times the totals.
final class RecordingScalerTests: XCTestCase {
    func scaled(_ recipe: Recipe, _ path: String, factor: Int, seed: UInt64 = 7) throws -> (text: String, summary: RecordingScaler.Summary) {
        let scaler = RecordingScaler(recipe: recipe, factor: factor, seed: seed)
        var bytes: [UInt8] = []
        let summary = try scaler.scale(recording: path, cloner: try scaler.cloner(recording: path)) { bytes += $0 }
        return (String(decoding: bytes, as: UTF8.self), summary)
    }

    func names(_ recipe: Recipe) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: RecordingScaler(recipe: recipe, factor: 2, seed: 1).clonedFields.map { ($0.event, $0.fields) })
    }

    func testTheRecipeSaysWhichFieldsAreIdentities() throws {
        XCTAssertEqual(names(try ShippedRecipes.load("order-changes")), [
            "device.register": ["device_id", "push_token", "store_ids", "input_push_channel"],
            "order.change": ["store_id"],
            "activity.end": ["device_id"],
        ])
        XCTAssertEqual(names(try ShippedRecipes.load("leave-requests-api")), [
            "leave.created": ["response.body.request.id", "body.live_activity_token"],
            "leave.token": ["path.requestId", "body.live_activity_token"],
            "leave.status": ["path.requestId"],
        ])
    }

    func testAKeyKeptOnAnEntityAndReadThroughARelationIsAnIdentity() throws {
        let dir = try ScratchFolder.make("scale", removedBy: addTeardownBlock)
        try #"{"aps":{"alert":"{{status}}"}}"#.write(toFile: dir.appendingPathComponent("t.json").path, atomically: true, encoding: .utf8)
        let yaml = """
            recipe: parcels
            events:
              phone:
                match: {kind: phone}
                fields: {phone_id: string, token: token, customer_id: string}
                upsert: phone
                key: phone_id
                token: token
                member_of: {customers: customer_id}
              parcel:
                match: {kind: parcel}
                fields: {parcel_id: string, customer: string, carrier: {type: string, one_of: [ups, dhl]}}
                upsert: parcel
                key: parcel_id
                set: {customer_id: customer, carrier: carrier}
              status:
                match: {kind: status}
                fields: {parcel_id: string, status: string}
                push:
                  to: {group: customers, key: parcel.customer_id}
                  template: t.json
            """
        let recipe = try RecipeLoader.load(yaml: yaml, file: dir.appendingPathComponent("r.yaml").path)
        XCTAssertEqual(names(recipe), [
            "phone": ["phone_id", "token", "customer_id"],
            "parcel": ["parcel_id", "customer"],
            "status": ["parcel_id"],
        ])
    }

    func testEachLineIsWrittenFactorTimesInARowAtItsRecordedTime() throws {
        let lines = try String(contentsOfFile: RepoFiles.stream("order-changes"), encoding: .utf8).split(separator: "\n").prefix(40)
        let path = StreamTestFiles.write(lines.joined(separator: "\n") + "\n", for: self)
        let (text, summary) = try scaled(try ShippedRecipes.load("order-changes"), path, factor: 3)
        let out = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(summary.linesRead, 40)
        XCTAssertEqual(out.count, 120)
        XCTAssertEqual(summary.linesWritten, 120)
        for (i, line) in lines.enumerated() {
            XCTAssertEqual(out[3 * i], String(line), "copy 0 is the recorded line")
            let at = try FlatJSON.parse(String(line)).string("at")
            for c in 1 ..< 3 {
                let copy = try FlatJSON.parse(out[3 * i + c])
                XCTAssertEqual(try copy.string("at"), at)
                XCTAssertEqual(try copy.string("kind"), try FlatJSON.parse(String(line)).string("kind"))
            }
        }
        let register = try FlatJSON.parse(try XCTUnwrap(out.first { $0.contains("device.register") && !lines.contains(Substring($0)) }))
        XCTAssertTrue(DeviceToken.isValid(try register.string("push_token")))
        XCTAssertTrue(try register.intArray("store_ids").allSatisfy { $0 >= 100 }, "stores up to 40: the stride is 100")
    }

    func testTheSameInputsGiveTheSameBytesAndFactorOneIsTheRecording() throws {
        let recipe = try ShippedRecipes.load("leave-requests-api")
        let path = RepoFiles.stream("leave-requests-api")
        let a = try scaled(recipe, path, factor: 4).text
        XCTAssertEqual(a, try scaled(recipe, path, factor: 4).text)
        XCTAssertNotEqual(a, try scaled(recipe, path, factor: 4, seed: 8).text)
        XCTAssertEqual(try scaled(recipe, path, factor: 1).text, try String(contentsOfFile: path, encoding: .utf8))
    }

    func testAnAPICallsCapturedIdAndItsResponseIdCloneAlike() throws {
        let (text, summary) = try scaled(try ShippedRecipes.load("leave-requests-api"), RepoFiles.stream("leave-requests-api"), factor: 2)
        XCTAssertEqual(summary.cloner.stride, 10_000, "request ids up to 1359")
        let out = text.split(separator: "\n").map(String.init)
        func id(_ line: String) throws -> Int {
            let o = try FlatJSON.parse(line)
            if try o.string("method") == "POST" { return try o.read(FieldPath(["response", "body", "request", "id"])) { try $0.int($1) } }
            return Int(try o.string("path").split(separator: "/")[2])!
        }
        for i in stride(from: 0, to: out.count, by: 2) {
            XCTAssertEqual(try id(out[i + 1]), try id(out[i]) + 10_000, out[i + 1])
        }
        // The response echoes the request's token: the echo is cloned alike.
        let post = try FlatJSON.parse(try XCTUnwrap(out.indices.filter { $0 % 2 == 1 }.map { out[$0] }
            .first { $0.contains(#""method":"POST""#) && $0.contains("live_activity_token") }))
        let sent = try post.read(FieldPath(["body", "live_activity_token"])) { try $0.string($1) }
        let echoed = try post.read(FieldPath(["response", "body", "request", "live_activity_token"])) { try $0.string($1) }
        XCTAssertEqual(echoed, sent)
        XCTAssertFalse(try String(contentsOfFile: RepoFiles.stream("leave-requests-api"), encoding: .utf8).contains(sent))
    }

    /// Pushes per event (fan-out per group) and per token, as the shipped recipe plans them over `path`.
    func distributions(_ recipe: Recipe, _ path: String) throws -> (perEvent: [Int: Int], perToken: [Int: Int], planned: Int) {
        let ledger = WorkloadLedger()
        let driver = try ledger.driver(RecipeRules(recipe, priority: .immediate), path: path, shape: recipe.recordShape)
        ledger.drain(driver)
        var perEvent: [Int: Int] = [:]
        for e in ledger.applied where e.pushes > 0 { perEvent[e.pushes, default: 0] += 1 }
        var byToken: [String: Int] = [:]
        for s in ledger.sent { byToken[s.token, default: 0] += 1 }
        var perToken: [Int: Int] = [:]
        for (_, n) in byToken { perToken[n, default: 0] += 1 }
        return (perEvent, perToken, ledger.pushesPlannedByEvents)
    }

    func testAScaledRecordingReplaysTheRecordedDistributionsKTimes() throws {
        for (name, stream) in [("order-changes", "order-changes"), ("leave-requests-api", "leave-requests-api")] {
            let recipe = try ShippedRecipes.load(name)
            let before = try distributions(recipe, RepoFiles.stream(stream))
            let path = StreamTestFiles.write(try scaled(recipe, RepoFiles.stream(stream), factor: 5).text, for: self)
            let after = try distributions(recipe, path)
            XCTAssertEqual(after.planned, 5 * before.planned, name)
            XCTAssertEqual(after.perEvent, before.perEvent.mapValues { 5 * $0 }, name)
            XCTAssertEqual(after.perToken, before.perToken.mapValues { 5 * $0 }, name)
        }
    }

    func testANonJSONLineIsAnErrorNamingTheFileAndLineBeforeAnythingIsWritten() throws {
        let path = StreamTestFiles.write(#"{"at":"2025-02-25T00:00:02.804Z","kind":"order.change","store_id":1,"totalOrders":0,"lateOrders":0,"#
            + #""totalItems":0}"# + "\nnot json\n", for: self)
        let scaler = RecordingScaler(recipe: try ShippedRecipes.load("order-changes"), factor: 2, seed: 1)
        XCTAssertThrowsError(try scaler.cloner(recording: path)) { error in
            XCTAssertEqual((error as? ProfileError)?.line, 2)
            XCTAssertTrue("\(error)".hasPrefix("\(path):2: not JSON"), "\(error)")
        }
        XCTAssertThrowsError(try scaler.cloner(recording: StreamTestFiles.missingPath())) { error in
            XCTAssertTrue("\(error)".contains("the recording cannot be read"), "\(error)")
        }
    }

    func testALineNoEventMatchesIsCopiedAsRecorded() throws {
        let odd = #"{"at":"2025-02-25T00:00:02.804Z","kind":"mystery","store_id":1}"#
        let path = StreamTestFiles.write(odd + "\n", for: self)
        let (text, summary) = try scaled(try ShippedRecipes.load("order-changes"), path, factor: 3)
        XCTAssertEqual(text, String(repeating: odd + "\n", count: 3))
        XCTAssertEqual(summary.unmatched, 1)
    }
}
