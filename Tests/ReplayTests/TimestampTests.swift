import XCTest
@testable import Replay

final class TimestampTests: XCTestCase {
    func testParsesUTCTimestamps() {
        XCTAssertEqual(Timestamp.parse("2025-04-16T10:00:00Z"), 1_744_797_600_000)
        XCTAssertEqual(Timestamp.parse("2025-04-16T10:00:00.000Z"), 1_744_797_600_000)
        XCTAssertEqual(Timestamp.parse("2025-04-16T10:04:52Z"), 1_744_797_892_000)
        XCTAssertEqual(Timestamp.parse("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(Timestamp.parse("1969-12-31T23:59:59Z"), -1000)
        XCTAssertEqual(Timestamp.parse("2000-02-29T23:59:59Z"), 951_868_799_000)
        XCTAssertEqual(Timestamp.parse("0001-01-01T00:00:00Z"), -62_135_596_800_000)
        XCTAssertEqual(Timestamp.parse("9999-12-31T23:59:59Z"), 253_402_300_799_000)
        XCTAssertEqual(Timestamp.parse("2025-04-16t10:00:00z"), 1_744_797_600_000, "RFC 3339 allows lower case")
    }

    func testFractionsAreTruncatedToMilliseconds() {
        let base: Int64 = 1_744_797_600_000
        XCTAssertEqual(Timestamp.parse("2025-04-16T10:00:00.1Z"), base + 100)
        XCTAssertEqual(Timestamp.parse("2025-04-16T10:00:00.12Z"), base + 120)
        XCTAssertEqual(Timestamp.parse("2025-04-16T10:00:00.123Z"), base + 123)
        XCTAssertEqual(Timestamp.parse("2025-04-16T10:00:00.123456Z"), base + 123)
        XCTAssertEqual(Timestamp.parse("2025-04-16T10:00:00.999999999Z"), base + 999)
        XCTAssertEqual(Timestamp.parse("1969-12-31T23:59:59.500Z"), -500)
    }

    func testOffsets() {
        let base: Int64 = 1_744_797_600_000
        XCTAssertEqual(Timestamp.parse("2025-04-16T12:00:00+02:00"), base)
        XCTAssertEqual(Timestamp.parse("2025-04-16T04:30:00-05:30"), base)
        XCTAssertEqual(Timestamp.parse("2025-04-16T10:00:00+00:00"), base)
        XCTAssertEqual(Timestamp.parse("2025-04-16T10:00:00-00:00"), base)
        XCTAssertEqual(Timestamp.parse("2025-04-17T01:00:00.250+15:00"), base + 250)
        XCTAssertEqual(Timestamp.parse("2025-01-01T00:30:00+01:00"), Timestamp.parse("2024-12-31T23:30:00Z"))
    }

    func testRejectsInvalidTimestamps() {
        let invalid = [
            "", "yesterday", "2025-04-16", "2025-04-16T10:00:00", "2025-04-16T10:00:00.000",
            "2025-13-01T00:00:00Z", "2025-00-10T00:00:00Z", "2025-04-00T00:00:00Z", "2025-04-31T00:00:00Z",
            "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2025-04-16T24:00:00Z", "2025-04-16T10:60:00Z",
            "2025-04-16T10:00:60Z", "2025-04-16 10:00:00Z", "2025-04-16T10:00:00.Z", "2025-04-16T10:00:00.1234567890Z",
            "2025-04-16T10:00:00+0200", "2025-04-16T10:00:00+24:00", "2025-04-16T10:00:00+02:60", "2025-04-16T10:00:00+02",
            "2025-04-16T10:00:00ZZ", "2025-04-16T10:00:00Z ", " 2025-04-16T10:00:00Z", "2025-4-16T10:00:00Z",
            "2025-04-16T1:00:00Z", "+2025-04-16T10:00:00Z", "2025-04-16T10:00:00UTC", "２０２５-04-16T10:00:00Z",
            "2025/04/16T10:00:00Z", "2025-04-16T10:00:0aZ",
        ]
        for text in invalid { XCTAssertNil(Timestamp.parse(text), text) }
    }

    func testLeapYears() {
        XCTAssertNotNil(Timestamp.parse("2024-02-29T00:00:00Z"))
        XCTAssertNotNil(Timestamp.parse("2000-02-29T00:00:00Z"))
        XCTAssertNil(Timestamp.parse("2100-02-29T00:00:00Z"))
        XCTAssertEqual(Timestamp.parse("2024-03-01T00:00:00Z").map { $0 - 86_400_000 }, Timestamp.parse("2024-02-29T00:00:00Z"))
    }

    func testFormatsUTC() {
        XCTAssertEqual(Timestamp.iso8601(millis: 1_744_797_892_000), "2025-04-16T10:04:52Z")
        XCTAssertEqual(Timestamp.iso8601(millis: 1_744_797_892_123), "2025-04-16T10:04:52.123Z")
        XCTAssertEqual(Timestamp.iso8601(millis: 1_744_797_892_007), "2025-04-16T10:04:52.007Z")
        XCTAssertEqual(Timestamp.iso8601(millis: 0), "1970-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp.iso8601(millis: -1), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(Timestamp.iso8601(millis: 951_868_799_000), "2000-02-29T23:59:59Z")
        XCTAssertEqual(Timestamp.iso8601(millis: -62_135_596_800_000), "0001-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp.iso8601(millis: 253_402_300_799_999), "9999-12-31T23:59:59.999Z")
        // Out of the 4-digit range: still formatted, never a crash.
        XCTAssertEqual(Timestamp.iso8601(millis: 253_402_300_800_000), "10000-01-01T00:00:00Z")
        XCTAssertFalse(Timestamp.iso8601(millis: .min).isEmpty)
        XCTAssertFalse(Timestamp.iso8601(millis: .max).isEmpty)
    }

    func testRoundTrips() {
        var random = StreamTestRandom(seed: 2025)
        let low = Timestamp.parse("0000-01-01T00:00:00Z") ?? 0
        let high = Timestamp.parse("9999-12-31T23:59:59.999Z") ?? 0
        XCTAssertLessThan(low, 0)
        for _ in 0 ..< 20_000 {
            var millis = Int64.random(in: low ... high, using: &random)
            if Bool.random(using: &random) { millis -= millis % 1000 }
            let text = Timestamp.iso8601(millis: millis)
            XCTAssertEqual(Timestamp.parse(text), millis, text)
        }
    }

    func testCivilArithmeticAgreesWithCountingDays() {
        // Walk day by day from 1899-12-31 to 2101-01-01 and compare with the formulas.
        var (year, month, day): (Int64, Int64, Int64) = (1899, 12, 31)
        var days = Timestamp.daysFromCivil(year: 1899, month: 12, day: 31)
        XCTAssertEqual(days, -25_568)
        while year < 2101 {
            XCTAssertEqual(Timestamp.daysFromCivil(year: year, month: month, day: day), days)
            let civil = Timestamp.civilFromDays(days)
            XCTAssertEqual([civil.year, civil.month, civil.day], [year, month, day])
            days += 1
            day += 1
            if day > Timestamp.daysInMonth(year: year, month: month) {
                day = 1
                month += 1
                if month > 12 {
                    month = 1
                    year += 1
                }
            }
        }
    }

    /// Truncations and random mutations of valid timestamps: nil or a value, never a crash; and
    /// whatever parses must format back to the same instant.
    func testNeverCrashesOnMutatedInput() {
        var random = StreamTestRandom(seed: 99)
        let seeds = ["2025-04-16T10:00:00.123456789Z", "2024-02-29T23:59:59+23:59", "0000-01-01T00:00:00-00:00"].map { Array($0.utf8) }
        let alphabet = Array("0123456789-:T.Z+z ".utf8) + [0x00, 0xFF]
        for seed in seeds {
            for cut in 0 ... seed.count { _ = Timestamp.parse(utf8: seed[..<cut]) }
            for _ in 0 ..< 5000 {
                var mutated = seed
                for _ in 0 ..< Int.random(in: 1 ... 3, using: &random) {
                    let at = Int.random(in: 0 ..< mutated.count, using: &random)
                    switch Int.random(in: 0 ..< 3, using: &random) {
                    case 0: mutated[at] = alphabet.randomElement(using: &random) ?? 0
                    case 1: mutated.remove(at: at)
                    default: mutated.insert(alphabet.randomElement(using: &random) ?? 0, at: at)
                    }
                    if mutated.isEmpty { break }
                }
                if let millis = Timestamp.parse(utf8: mutated[...]) {
                    XCTAssertEqual(Timestamp.parse(Timestamp.iso8601(millis: millis)), millis, String(decoding: mutated, as: UTF8.self))
                }
            }
        }
    }

    func testParsesBytes() {
        let bytes = Array("xx2025-04-16T10:00:00Zyy".utf8)
        XCTAssertEqual(Timestamp.parse(utf8: bytes[2 ..< 22]), 1_744_797_600_000)
        XCTAssertNil(Timestamp.parse(utf8: bytes[2 ..< 23]))
    }
}
