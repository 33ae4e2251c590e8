import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// ``IdentityCloner``: each kind of id keeps its type, and copies never meet each other or the recording.
final class IdentityClonerTests: XCTestCase {
    let cloner = IdentityCloner(seed: 7, stride: 1000, separator: "~")

    func testCopyZeroIsTheRecordedValue() {
        XCTAssertEqual(cloner.int(25, copy: 0), 25)
        for s in ["25", "store-a", "2F2A43E2-912F-CA2B-8E2C-628DB1E9B46A", String(repeating: "ab", count: 32), ""] {
            XCTAssertEqual(cloner.text(s, copy: 0), s)
        }
    }

    func testIntegersStepByTheStrideAndTextIntegersStayTextOfTheSameNumber() {
        XCTAssertEqual(cloner.int(25, copy: 3), 3025)
        XCTAssertEqual(cloner.int(0, copy: 1), 1000)
        XCTAssertEqual(cloner.int(-4, copy: 2), -2004)
        XCTAssertEqual(cloner.text("25", copy: 3), "3025", "a request id in a path clones as it does in a body")
        XCTAssertEqual(cloner.text("007", copy: 1), "007~1", "a leading zero is not an integer's text")
    }

    func testIntegerCopiesAreDisjointFromEachOtherAndTheRecording() {
        let recorded = Array(0 ..< 1000)
        var seen = Set(recorded)
        for c in 1 ..< 20 { for v in recorded { XCTAssertTrue(seen.insert(cloner.int(v, copy: c)).inserted, "\(v) copy \(c)") } }
    }

    func testTokensStayValidDeviceTokensOfTheSameLengthAndCaseAndNeverCollide() throws {
        let tokens = try String(contentsOfFile: RepoFiles.stream("order-changes"), encoding: .utf8)
            .split(separator: "\n").compactMap { line -> String? in
                guard let o = try? FlatJSON.parse(String(line)), let t = try? o.optionalString("push_token") else { return nil }
                return t
            }
        XCTAssertGreaterThan(tokens.count, 300)
        var seen = Set(tokens)
        for c in 1 ..< 30 {
            for t in tokens {
                let clone = cloner.text(t, copy: c)
                XCTAssertEqual(clone.count, t.count)
                XCTAssertTrue(DeviceToken.isValid(clone), clone)
                XCTAssertTrue(clone.allSatisfy { "0123456789abcdef".contains($0) }, clone)
                XCTAssertTrue(seen.insert(clone).inserted, "copy \(c) of \(t.prefix(12))… met another value")
            }
        }
        XCTAssertEqual(cloner.text("ABCDEF0123456789ABCDEF0123456789", copy: 1).uppercased(), cloner.text("ABCDEF0123456789ABCDEF0123456789", copy: 1))
    }

    func testUUIDsStayUUIDs() throws {
        let uuid = "2F2A43E2-912F-CA2B-8E2C-628DB1E9B46A"
        let shape = try NSRegularExpression(pattern: "^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$")
        var seen: Set = [uuid]
        for c in 1 ..< 50 {
            let clone = cloner.text(uuid, copy: c)
            XCTAssertEqual(shape.numberOfMatches(in: clone, range: NSRange(clone.startIndex..., in: clone)), 1, clone)
            XCTAssertTrue(seen.insert(clone).inserted)
        }
    }

    func testLongDigitStringsStayDigitsAndOtherTextGetsTheSeparatorAndCopy() {
        let digits = "12345678901234567890"
        let clone = cloner.text(digits, copy: 2)
        XCTAssertEqual(clone.count, digits.count)
        XCTAssertTrue(clone.allSatisfy(\.isNumber))
        XCTAssertNotEqual(clone, digits)
        XCTAssertEqual(cloner.text("store-a", copy: 3), "store-a~3")
        XCTAssertEqual(cloner.text("", copy: 3), "", "an empty token stays absent")
    }

    func testTheSeedChangesTokensAndTheSameSeedRepeatsThem() {
        let t = String(repeating: "0f", count: 32)
        let other = IdentityCloner(seed: 8, stride: 1000, separator: "~")
        XCTAssertEqual(cloner.text(t, copy: 1), IdentityCloner(seed: 7, stride: 1000, separator: "~").text(t, copy: 1))
        XCTAssertNotEqual(cloner.text(t, copy: 1), other.text(t, copy: 1))
    }

    func testTheRangeSizesTheStrideAvoidsUsedSeparatorsAndRefusesOverflow() throws {
        var range = IdentityRange()
        for n in [3, 40, 999] { range.add(n) }
        range.add("1289")
        range.add("a~b")
        let c = try range.cloner(factor: 10, seed: 1).get()
        XCTAssertEqual(c.stride, 10_000)
        XCTAssertEqual(c.separator, "!")
        var small = IdentityRange()
        small.add(0)
        XCTAssertEqual(try small.cloner(factor: 2, seed: 1).get().stride, 10)
        var huge = IdentityRange()
        huge.add(Int.max / 2)
        XCTAssertEqual(huge.cloner(factor: 3, seed: 1), .failure(.integersOverflow(largest: Int.max / 2, factor: 3)))
    }
}
