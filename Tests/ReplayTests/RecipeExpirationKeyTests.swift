import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// A push rule's `expiration` is a duration (`expiration: 1h`); its former name `expiration_seconds`, a number
/// of seconds, is read still with a one-line notice naming the new key. A value read from each event is int
/// seconds under either name.
final class RecipeExpirationKeyTests: XCTestCase {
    private var dir: URL!
    private var path: String { dir.appendingPathComponent("r.yaml").path }

    override func setUpWithError() throws {
        dir = try ScratchFolder.make("recipe-expiration", removedBy: addTeardownBlock)
        try #"{"aps": {"alert": "{{text}}"}}"#.write(to: dir.appendingPathComponent("t.json"), atomically: true, encoding: .utf8)
    }

    private func recipe(_ push: String) throws -> Recipe {
        let yaml = """
            recipe: expiring
            events:
              note:
                match: {kind: note}
                fields: {token: token, text: string, urgency: string?, ttl: int?}
                push:
                  to: {token: token}
                  template: t.json
                  push_type: alert
            \(push.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
            """
        return try RecipeLoader.load(yaml: yaml, file: path)
    }

    private func expiration(_ r: Recipe) -> [HeaderConstant?] { r.pushKinds.dropFirst().map { $0[APNsHeaders.expiration] } }

    func testExpirationIsADuration() throws {
        XCTAssertEqual(expiration(try recipe("expiration: 1h30m")), [.number(5400)])
        XCTAssertEqual(expiration(try recipe("expiration: 0")), [.number(0)])
        XCTAssertEqual(try recipe("expiration: 1h").deprecations, [])
        let mapped = try recipe("expiration: {from: urgency, map: {later: 2h, now: 0}, default: 90s}")
        XCTAssertEqual(Set(expiration(mapped).compactMap { $0 }), [.number(7200), .number(0), .number(90)])
        XCTAssertEqual(try recipe("expiration: ttl").pushKinds.last?.perPush.contains(APNsHeaders.expiration), true,
                       "a field's value is read from each event, int seconds")
    }

    func testTheFormerNameIsReadWithANotice() throws {
        let constant = try recipe("expiration_seconds: 3600")
        XCTAssertEqual(expiration(constant), [.number(3600)])
        XCTAssertEqual(constant.deprecations, ["\(path):10: 'expiration_seconds' is deprecated: write 'expiration: 1h'"])
        XCTAssertEqual(try recipe("expiration_seconds: ttl").deprecations,
                       ["\(path):10: 'expiration_seconds' is deprecated: write 'expiration' (a value read from each event is int seconds under either name)"])
    }

    func testRefusals() {
        assertRefused("expiration: 3600", "'events.note.push.expiration' must be a duration: '3600' has no unit: write 3600s or 3600ms")
        assertRefused("expiration: 1500ms", "'events.note.push.expiration' must be whole seconds from 0 to 8760h (APNs' expiration), found '1500ms'")
        assertRefused("expiration: 8761h", "'events.note.push.expiration' must be whole seconds from 0 to 8760h (APNs' expiration), found '8761h'")
        assertRefused("expiration: {from: urgency, map: {later: 60}}",
                      "'events.note.push.expiration.map.later' must be a duration: '60' has no unit: write 60s or 60ms")
        assertRefused("expiration: 1h\nexpiration_seconds: 60",
                      "'events.note.push.expiration_seconds' is the former name of 'expiration': give one of them", line: 11)
        assertRefused("expiration: 1h\nexpiration_at: \"time + 600\"", "'events.note.push.expiration_at' does not go with 'expiration': give one expiration",
                      line: 11)
    }

    private func assertRefused(_ push: String, _ message: String, line: Int = 10, file: StaticString = #filePath, at: UInt = #line) {
        XCTAssertThrowsError(try recipe(push), file: file, line: at) { error in
            XCTAssertEqual("\(error)", "\(path):\(line): \(message)", file: file, line: at)
        }
    }
}
