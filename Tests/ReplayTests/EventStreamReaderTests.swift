import Foundation
import TestSupport
import XCTest
@testable import Replay

final class EventStreamReaderTests: XCTestCase {

    private func readAll(_ reader: EventStreamReader) throws -> [StreamStep] { try StreamStep.readAll(reader) }

    private let t0: Int64 = 1_744_797_600_000  // 2025-04-16T10:00:00Z

    func testReadsRecords() throws {
        let path = StreamTestFiles.write("""
            {"at":"2025-04-16T10:00:00.000Z","kind":"leave.created","request_id":22,"student_id":1427,"student_name":"John \\"JD\\" Doe 🎒 \
            Nguyễn","reason":null,"store_ids":[1,2,5]}
            {"at":"2025-04-16T10:01:10.000Z","kind":"leave.token","request_id":22}

            {"at":"2025-04-16T12:04:52+02:00","kind":"leave.status","request_id":22,"status":"approved"}
            """, for: self)
        let reader = try EventStreamReader(path: path)
        guard case let .record(line, at, kind, fields)? = try reader.next() else { return XCTFail("expected a record") }
        XCTAssertEqual(line, 1)
        XCTAssertEqual(at, t0)
        XCTAssertEqual(kind, "leave.created")
        XCTAssertEqual(try fields.string("student_name"), "John \"JD\" Doe 🎒 Nguyễn")
        XCTAssertEqual(try fields.intArray("store_ids"), [1, 2, 5])
        XCTAssertEqual(try fields.string("kind"), "leave.created", "at and kind stay in the fields")
        XCTAssertEqual(try readAll(reader), [
            .record(line: 2, at: t0 + 70_000, kind: "leave.token"),
            .record(line: 4, at: t0 + 292_000, kind: "leave.status"),
        ])
        XCTAssertEqual(reader.linesRead, 4, "the blank line counts")
        XCTAssertEqual(reader.recordsRead, 3)
        XCTAssertEqual(reader.badLinesRead, 0)
        XCTAssertEqual(reader.latestMillis, t0 + 292_000)
    }

    func testABadLineInTheMiddleDoesNotStopTheStream() throws {
        let path = StreamTestFiles.write("""
            {"at":"2025-04-16T10:00:00Z","kind":"a"}
            {"at":"2025-04-16T10:00:01Z","kind":"b"}
            {"at":"2025-04-16T10:00:02Z","kind":"c","student_name":"unterminated}
            {"at":"2025-04-16T10:00:03Z","kind":"d"}
            {"at":"2025-04-16T10:00:04Z","kind":"e"}

            """, for: self)
        let reader = try EventStreamReader(path: path, chunkSize: 7)
        XCTAssertEqual(try readAll(reader), [
            .record(line: 1, at: t0, kind: "a"),
            .record(line: 2, at: t0 + 1000, kind: "b"),
            .bad("line 3: not JSON (unterminated string at byte 56)"),
            .record(line: 4, at: t0 + 3000, kind: "d"),
            .record(line: 5, at: t0 + 4000, kind: "e"),
        ])
        XCTAssertEqual(reader.recordsRead, 4)
        XCTAssertEqual(reader.badLinesRead, 1)
        XCTAssertEqual(reader.linesRead, 5)
    }

    func testEveryBadLineCause() throws {
        let long = #"{"at":"2025-04-16T10:00:00Z","kind":"x","pad":""# + String(repeating: "p", count: 300) + #""}"#
        let path = StreamTestFiles.write("""
            {"at":"2025-04-16T10:00:10Z","kind":"first"}
            {"kind":"no.at"}
            {"at":1744797600000,"kind":"numeric.at"}
            {"at":"yesterday","kind":"words"}
            {"at":"2025-04-16T10:00:11"}
            {"at":"2025-04-16T10:00:11Z"}
            {"at":"2025-04-16T10:00:11Z","kind":7}
            {"at":"2025-04-16T10:00:11Z","kind":""}
            {"at":"2025-04-16T10:00:08.500Z","kind":"late"}
            \(long)
            [1,2,3]
            {"at":"2025-04-16T10:00:12Z","kind":"dup","kind":"again"}
            {"at":"2025-04-16T10:00:12Z","kind":"last"}
            """, for: self)
        let reader = try EventStreamReader(path: path, chunkSize: 16, maxLineBytes: 200)
        var keys: [String] = []
        var steps: [StreamStep] = []
        while let event = try reader.next() {
            switch event {
            case let .record(line, at, kind, _): steps.append(.record(line: line, at: at, kind: kind))
            case let .bad(error):
                steps.append(.bad(error.description))
                keys.append(error.key)
                XCTAssertEqual(event.line, error.line)
            }
        }
        XCTAssertEqual(steps, [
            .record(line: 1, at: t0 + 10_000, kind: "first"),
            .bad("line 2: missing field 'at'"),
            .bad("line 3: field 'at' should be a string, found an integer"),
            .bad("line 4: field 'at' is not an RFC 3339 timestamp: 'yesterday'"),
            .bad("line 5: field 'at' is not an RFC 3339 timestamp: '2025-04-16T10:00:11'"),
            .bad("line 6: missing field 'kind'"),
            .bad("line 7: field 'kind' should be a string, found an integer"),
            .bad("line 8: bad value in field 'kind': empty"),
            .bad("line 9: time goes backwards by 1500 ms"),
            .bad("line 10: line too long"),
            .bad("line 11: not JSON (top level is an array, not an object)"),
            .bad("line 12: not JSON (duplicate key 'kind' at byte 43)"),
            .record(line: 13, at: t0 + 12_000, kind: "last"),
        ])
        XCTAssertEqual(Set(keys), ["missing_field", "wrong_type", "bad_timestamp", "bad_value", "time_backwards", "line_too_long", "not_json"])
    }

    func testTimeBackwardsDoesNotMoveTheLatestMark() throws {
        let path = StreamTestFiles.write("""
            {"at":"2025-04-16T10:00:10Z","kind":"a"}
            {"at":"2025-04-16T10:00:05Z","kind":"b"}
            {"at":"2025-04-16T10:00:07Z","kind":"c"}
            {"at":"2025-04-16T10:00:10Z","kind":"same"}
            {"at":"2025-04-16T10:00:11Z","kind":"d"}
            """, for: self)
        XCTAssertEqual(try readAll(EventStreamReader(path: path)), [
            .record(line: 1, at: t0 + 10_000, kind: "a"),
            .bad("line 2: time goes backwards by 5000 ms"),
            .bad("line 3: time goes backwards by 3000 ms"),
            .record(line: 4, at: t0 + 10_000, kind: "same"),
            .record(line: 5, at: t0 + 11_000, kind: "d"),
        ])
    }

    func testToleranceAllowsSmallReordering() throws {
        let path = StreamTestFiles.write("""
            {"at":"2025-04-16T10:00:10Z","kind":"a"}
            {"at":"2025-04-16T10:00:08Z","kind":"within"}
            {"at":"2025-04-16T10:00:07.999Z","kind":"beyond"}
            {"at":"2025-04-16T10:00:09Z","kind":"within.again"}
            """, for: self)
        let reader = try EventStreamReader(path: path, backwardsToleranceMillis: 2000)
        XCTAssertEqual(try readAll(reader), [
            .record(line: 1, at: t0 + 10_000, kind: "a"),
            .record(line: 2, at: t0 + 8000, kind: "within"),
            .bad("line 3: time goes backwards by 2001 ms"),
            .record(line: 4, at: t0 + 9000, kind: "within.again"),
        ])
        XCTAssertEqual(reader.latestMillis, t0 + 10_000, "an earlier record does not lower the mark")
    }

    func testEscapedTimestampStillParses() throws {
        let path = StreamTestFiles.write(#"{"at":"2025-04-16T10:00:00\u005a","kind":"k"}"#, for: self)
        XCTAssertEqual(try readAll(EventStreamReader(path: path)), [.record(line: 1, at: t0, kind: "k")])
    }

    func testMissingFile() {
        let path = StreamTestFiles.missingPath()
        XCTAssertThrowsError(try EventStreamReader(path: path)) { error in
            guard case let .cannotOpen(errorPath, reason)? = error as? StreamError else { return XCTFail("\(error)") }
            XCTAssertEqual(errorPath, path)
            XCTAssertEqual(reason, "No such file or directory")
        }
    }

    /// Not a timing test: 200k lines go through in constant memory (the read buffer stays at its
    /// bound and peak RSS does not grow by anything like the file's size).
    func testManyLinesInConstantMemory() throws {
        let count = 200_000
        let url = try ScratchFolder.make("replay", removedBy: addTeardownBlock).appendingPathComponent("many.ndjson")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        var chunk = ""
        var fileBytes = 0
        for index in 0 ..< count {
            let seconds = index / 100
            let at = Timestamp.iso8601(millis: t0 + Int64(seconds) * 1000 + Int64(index % 100) * 10)
            chunk += #"{"at":"\#(at)","kind":"leave.created","request_id":\#(index),"student_id":\#(index % 5000),"student_name":"Student \"\#(index)\" "#
                + #"Nguyễn 🎒","reason":null,"store_ids":[1,2,\#(index % 7)],"note":"padding padding padding padding padding padding padding padding"}"# + "\n"
            if chunk.utf8.count > 1 << 20 {
                fileBytes += chunk.utf8.count
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        fileBytes += chunk.utf8.count
        handle.write(Data(chunk.utf8))
        try handle.close()

        let rssBefore = StreamTestFiles.peakRSSBytes()
        let reader = try EventStreamReader(path: url.path)
        var records = 0
        var idSum = 0
        while let event = try reader.next() {
            guard case let .record(_, _, _, fields) = event else { return XCTFail("\(event)") }
            records += 1
            idSum &+= try fields.int("request_id")
        }
        let rssGrowth = StreamTestFiles.peakRSSBytes() - rssBefore
        XCTAssertEqual(records, count)
        XCTAssertEqual(reader.linesRead, count)
        XCTAssertEqual(idSum, count * (count - 1) / 2)
        XCTAssertGreaterThan(fileBytes, 40 << 20)
        XCTAssertLessThan(rssGrowth, 16 << 20, "peak RSS grew by \(rssGrowth) bytes for a \(fileBytes)-byte file")
    }
}
