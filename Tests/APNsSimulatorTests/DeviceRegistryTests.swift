import APNsCore
@testable import APNsSimulator
import TestSupport
import XCTest

final class DeviceRegistryTests: XCTestCase {
    func testGeneratedTokensAreDeterministicValidAndDistinct() {
        let a = DeviceRegistry.generatedTokens(count: 500, seed: 9, hexLength: 160)
        XCTAssertEqual(a, DeviceRegistry.generatedTokens(count: 500, seed: 9, hexLength: 160))
        XCTAssertNotEqual(a, DeviceRegistry.generatedTokens(count: 500, seed: 10, hexLength: 160))
        XCTAssertEqual(Set(a).count, 500)
        XCTAssertTrue(a.allSatisfy { DeviceToken.isValid($0) && $0.count == 160 })
    }

    func testDeadFractionIsDecidedByTokenAndSeed() {
        var r = DeviceRegistry()
        r.deadFraction = 0.1
        r.seed = 3
        let tokens = DeviceRegistry.generatedTokens(count: 20_000, seed: 1)
        let dead = tokens.filter { r.check(token: $0, bundleID: "b") != nil }
        XCTAssertEqual(Double(dead.count) / 20_000, 0.1, accuracy: 0.01)
        XCTAssertEqual(dead, tokens.filter { r.check(token: $0.uppercased(), bundleID: "b") != nil }, "same token, same answer, any case")
        XCTAssertEqual(r.check(token: dead[0], bundleID: "b")?.reason, .unregistered)
        r.seed = 4
        XCTAssertNotEqual(dead, tokens.filter { r.check(token: $0, bundleID: "b") != nil })
        XCTAssertEqual(DeviceRegistry().check(token: tokens[0], bundleID: "b")?.reason, nil, "the default lets everything through")
    }

    func testUnknownTokensCanBeRefused() {
        var r = DeviceRegistry()
        r.register(token: String(repeating: "1", count: 64), bundleID: "b")
        XCTAssertNil(r.check(token: String(repeating: "2", count: 64), bundleID: "b"))
        r.unknownTokenReason = .badDeviceToken
        XCTAssertEqual(r.check(token: String(repeating: "2", count: 64), bundleID: "b")?.reason, .badDeviceToken)
        XCTAssertNil(r.check(token: String(repeating: "1", count: 64), bundleID: "b"))
    }

    func testFileLoadingAndItsErrors() throws {
        let dir = try ScratchFolder.make("registry")
        defer { ScratchFolder.remove(dir) }
        let good = dir.appendingPathComponent("tokens.txt")
        let t1 = String(repeating: "a", count: 64), t2 = String(repeating: "b", count: 64), t3 = String(repeating: "c", count: 64)
        try "# tokens\n\(t1) com.a\n\(t2) com.a Unregistered 1600000000000\n\n\(t3) com.b ExpiredToken\n".write(to: good, atomically: true, encoding: .utf8)
        var r = DeviceRegistry()
        try r.load(path: good.path)
        XCTAssertNil(r.check(token: t1, bundleID: "com.a"))
        XCTAssertEqual(r.check(token: t1, bundleID: "com.b")?.reason, .deviceTokenNotForTopic)
        XCTAssertEqual(r.check(token: t2, bundleID: "com.a")?.timestampMilliseconds, 1_600_000_000_000)
        XCTAssertEqual(r.check(token: t3, bundleID: "com.b")?.reason, .expiredToken)

        let bad = dir.appendingPathComponent("bad.txt")
        try "\(t1) com.a\n\(t2) com.a Gone\n".write(to: bad, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try r.load(path: bad.path)) { error in
            XCTAssertEqual(String(describing: error), "device registry \(bad.path):2: 'Gone' is neither Unregistered nor ExpiredToken")
        }
    }
}
