import XCTest
@testable import Replay

/// `EventStreamReader` with a configured time field, time format and kind field.
final class RecordShapeTests: XCTestCase {

    private func readAll(_ text: String, shape: RecordShape) throws -> [StreamStep] {
        try StreamStep.readAll(EventStreamReader(path: StreamTestFiles.write(text, for: self), shape: shape))
    }

    private let t0: Int64 = 1_744_797_600_000  // 2025-04-16T10:00:00Z

    func testTheStandardShapeIsAtAndKind() {
        XCTAssertEqual(RecordShape.standard, RecordShape(timeField: "at", timeFormat: .iso8601, kindField: "kind"))
        XCTAssertEqual(RecordShape.standard.description, "time 'at' (iso8601), kind 'kind'")
    }

    func testUnixSeconds() throws {
        let steps = try readAll("""
            {"ts":1744797600,"type":"a"}
            {"ts":1744797600.05,"type":"b"}
            {"ts":1.7447976001239e9,"type":"c"}
            {"ts":"1744797600","type":"d"}
            {"type":"e"}
            {"ts":1e20,"type":"f"}
            {"ts":123456789012345678901234567890,"type":"g"}
            {"ts":1744797601,"type":""}
            {"ts":1744797601,"kind":"h"}
            {"ts":1744797602,"type":"i","at":"not a time"}
            """, shape: RecordShape(timeField: "ts", timeFormat: .unixSeconds, kindField: "type"))
        XCTAssertEqual(steps, [
            .record(line: 1, at: t0, kind: "a"),
            .record(line: 2, at: t0 + 50, kind: "b"),
            .record(line: 3, at: t0 + 123, kind: "c"),
            .bad("line 4: field 'ts' should be a number, found a string"),
            .bad("line 5: missing field 'ts'"),
            .bad("line 6: field 'ts' is not epoch seconds: '1e20'"),
            .bad("line 7: field 'ts' is not epoch seconds: '123456789012345678901234567890'"),
            .bad("line 8: bad value in field 'type': empty"),
            .bad("line 9: missing field 'type'"),
            .record(line: 10, at: t0 + 2000, kind: "i"),
        ])
    }

    func testUnixMillis() throws {
        let steps = try readAll("""
            {"ts_ms":1744797600007,"kind":"a"}
            {"ts_ms":1744797600007.5,"kind":"b"}
            {"ts_ms":true,"kind":"c"}
            {"ts_ms":253402300800000,"kind":"d"}
            {"ts_ms":99999999999999999999,"kind":"e"}
            {"ts_ms":1744797600008,"kind":"f"}
            """, shape: RecordShape(timeField: "ts_ms", timeFormat: .unixMillis))
        XCTAssertEqual(steps, [
            .record(line: 1, at: t0 + 7, kind: "a"),
            .bad("line 2: field 'ts_ms' should be an integer, found a number"),
            .bad("line 3: field 'ts_ms' should be an integer, found a boolean"),
            .bad("line 4: field 'ts_ms' is not epoch milliseconds: '253402300800000'"),
            .bad("line 5: field 'ts_ms' is not epoch milliseconds: '99999999999999999999'"),
            .record(line: 6, at: t0 + 8, kind: "f"),
        ])
    }

    func testAnotherTimeFieldInRFC3339() throws {
        let steps = try readAll("""
            {"time":"2025-04-16T10:00:00Z","kind":"a"}
            {"time":"2025-04-16 10:00:01","kind":"b"}
            {"at":"2025-04-16T10:00:01Z","kind":"c"}
            {"time":"2025-04-16T09:59:59Z","kind":"d"}
            """, shape: RecordShape(timeField: "time"))
        XCTAssertEqual(steps, [
            .record(line: 1, at: t0, kind: "a"),
            .bad("line 2: field 'time' is not an RFC 3339 timestamp: '2025-04-16 10:00:01'"),
            .bad("line 3: missing field 'time'"),
            .bad("line 4: time goes backwards by 1000 ms"),
        ])
    }

    func testNoKindField() throws {
        let steps = try readAll("""
            {"at":"2025-04-16T10:00:00Z","method":"PUT","path":"/api/leave-requests/3/status"}
            {"at":"2025-04-16T10:00:01Z","kind":""}
            {"method":"POST"}
            """, shape: RecordShape(kindField: nil))
        XCTAssertEqual(steps, [
            .record(line: 1, at: t0, kind: ""),
            .record(line: 2, at: t0 + 1000, kind: ""),
            .bad("line 3: missing field 'at'"),
        ])
    }

    func testBadEpochTimeIsReportedAsABadTimestamp() {
        let cause = StreamLineError.Cause.badEpochTime(field: "ts", unit: "seconds", value: "1e99")
        XCTAssertEqual(cause.key, "bad_timestamp")
        XCTAssertTrue(StreamLineError.Cause.allKeys.contains(cause.key))
    }

    /// Seconds written as JSON numbers become milliseconds exactly, digits beyond milliseconds cut.
    func testEpochSecondsTextToMillis() {
        func millis(_ text: String) -> Int64? {
            var text = text
            return text.withUTF8 { EpochTime.millis(fromSeconds: $0) }
        }
        XCTAssertEqual(millis("1744797600"), t0)
        XCTAssertEqual(millis("1744797600.123"), t0 + 123, "no binary rounding: .123 is 123 ms")
        XCTAssertEqual(millis("1744797600.1239999"), t0 + 123, "truncated, not rounded")
        XCTAssertEqual(millis("17447976001239E-4"), t0 + 123)
        XCTAssertEqual(millis("1.7447976e+9"), t0)
        XCTAssertEqual(millis("-1.5"), -1500)
        XCTAssertEqual(millis("0.0004"), 0)
        XCTAssertEqual(millis("0"), 0)
        XCTAssertEqual(millis("0e99999"), 0)
        XCTAssertEqual(millis("253402300799.999"), EpochTime.millisRange.upperBound)
        XCTAssertNil(millis("253402300800"))
        XCTAssertNil(millis("1e99999"))
        XCTAssertNil(millis("-62167219201"))
        XCTAssertEqual(EpochTime.millis(fromSeconds: 1_744_797_600 as Int64), t0)
        XCTAssertNil(EpochTime.millis(fromSeconds: Int64.max / 10))
    }
}
