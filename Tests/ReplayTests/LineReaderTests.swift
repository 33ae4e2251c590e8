import Foundation
import TestSupport
import XCTest
@testable import Replay

final class LineReaderTests: XCTestCase {
    /// Reads everything; a too-long line appears as `(number, nil)`.
    private func readAll(_ reader: LineReader) throws -> [(Int, String?)] {
        var out: [(Int, String?)] = []
        while true {
            do {
                guard let line = try reader.next() else { return out }
                out.append((line.number, line.text))
            } catch StreamError.lineTooLong(let number) {
                out.append((number, nil))
            }
        }
    }

    private func assertLines(
        _ actual: [(Int, String?)], _ expected: [(Int, String?)],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(actual.map(\.0), expected.map(\.0), "line numbers", file: file, line: line)
        XCTAssertEqual(actual.map(\.1), expected.map(\.1), "line texts", file: file, line: line)
    }

    func testSplitsLinesAndNumbersThem() throws {
        let path = StreamTestFiles.write("alpha\nbeta\ngamma\n", for: self)
        let reader = try LineReader(path: path)
        assertLines(try readAll(reader), [(1, "alpha"), (2, "beta"), (3, "gamma")])
        XCTAssertEqual(reader.lineNumber, 3)
        XCTAssertNil(try reader.next(), "stays at the end")
    }

    func testBytesConsumedFollowTheLinesNotTheReads() throws {
        let path = StreamTestFiles.write("alpha\n\nbeta\ngamma", for: self)
        let reader = try LineReader(path: path, chunkSize: 64)
        XCTAssertEqual(reader.fileSize, 17)
        XCTAssertEqual(reader.bytesConsumed, 0)
        _ = try reader.next()
        XCTAssertEqual(reader.bytesConsumed, 6, "the whole file was read in one chunk, one line consumed")
        _ = try reader.next()
        XCTAssertEqual(reader.bytesConsumed, 12, "the blank line and beta")
        _ = try reader.next()
        XCTAssertEqual(reader.bytesConsumed, 17)
    }

    func testLinesStraddlingChunkBoundaries() throws {
        let lines = ["{\"a\":1}", "a line much longer than seven bytes", "x", "", "0123456", "01234567", "é🎒 Nguyễn"]
        let path = StreamTestFiles.write(lines.joined(separator: "\n") + "\n", for: self)
        let expected: [(Int, String?)] = lines.enumerated().compactMap { $1.isEmpty ? nil : ($0 + 1, $1) }
        for chunkSize in [1, 2, 3, 7, 8, 13, 64, 1 << 16] {
            let reader = try LineReader(path: path, chunkSize: chunkSize)
            assertLines(try readAll(reader), expected)
        }
    }

    func testStripsCarriageReturnOfCRLF() throws {
        let path = StreamTestFiles.write("one\r\ntwo\r\n\r\nthree\r\n", for: self)
        let reader = try LineReader(path: path, chunkSize: 7)
        assertLines(try readAll(reader), [(1, "one"), (2, "two"), (4, "three")])
    }

    func testOnlyATrailingCarriageReturnIsStripped() throws {
        let path = StreamTestFiles.write("a\rb\r\n", for: self)
        assertLines(try readAll(LineReader(path: path)), [(1, "a\rb")])
    }

    func testLastLineWithoutNewline() throws {
        let path = StreamTestFiles.write("first\nlast", for: self)
        for chunkSize in [1, 3, 7, 1 << 16] {
            assertLines(try readAll(LineReader(path: path, chunkSize: chunkSize)), [(1, "first"), (2, "last")])
        }
        let crlf = StreamTestFiles.write("first\r\nlast\r", for: self)
        assertLines(try readAll(LineReader(path: crlf, chunkSize: 7)), [(1, "first"), (2, "last")])
    }

    func testBlankLinesAreSkippedButCounted() throws {
        let path = StreamTestFiles.write("\n\na\n   \n\t \r\n\nb\n\n", for: self)
        let reader = try LineReader(path: path, chunkSize: 7)
        assertLines(try readAll(reader), [(3, "a"), (7, "b")])
        XCTAssertEqual(reader.lineNumber, 8, "the trailing blank line is counted too")
    }

    func testEmptyFile() throws {
        let reader = try LineReader(path: StreamTestFiles.write("", for: self))
        XCTAssertNil(try reader.next())
        XCTAssertEqual(reader.lineNumber, 0)
    }

    func testByteOrderMarkIsDropped() throws {
        let path = StreamTestFiles.write([0xEF, 0xBB, 0xBF] + Array("{}\n{}".utf8), for: self)
        assertLines(try readAll(LineReader(path: path, chunkSize: 2)), [(1, "{}"), (2, "{}")])
    }

    func testLinesOwnTheirBytes() throws {
        let path = StreamTestFiles.write("first\nsecond\nthird\n", for: self)
        let reader = try LineReader(path: path, chunkSize: 4)
        var kept: [LineReader.Line] = []
        while let line = try reader.next() { kept.append(line) }
        XCTAssertEqual(kept.map(\.text), ["first", "second", "third"])
        XCTAssertEqual(kept.map(\.bytes.startIndex), [0, 0, 0])
    }

    func testLongLineIsAnErrorAndReadingContinues() throws {
        let long = String(repeating: "x", count: 100)
        let path = StreamTestFiles.write("short\n\(long)\nafter\n\(long)\r\nend\n\(long)", for: self)
        for chunkSize in [1, 4, 7, 64, 1 << 16] {
            let reader = try LineReader(path: path, chunkSize: chunkSize, maxLineBytes: 10)
            assertLines(try readAll(reader), [(1, "short"), (2, nil), (3, "after"), (4, nil), (5, "end"), (6, nil)])
            XCTAssertLessThanOrEqual(reader.bufferCapacity, chunkSize + 10 + 1, "chunk \(chunkSize)")
        }
    }

    func testLongLineErrorNamesTheLine() throws {
        let path = StreamTestFiles.write("ok\n" + String(repeating: "y", count: 50) + "\n", for: self)
        let reader = try LineReader(path: path, chunkSize: 7, maxLineBytes: 20)
        XCTAssertEqual(try reader.next()?.text, "ok")
        XCTAssertThrowsError(try reader.next()) { error in
            XCTAssertEqual(error as? StreamError, .lineTooLong(line: 2))
            XCTAssertEqual("\(error)", "line 2: line too long")
        }
        XCTAssertNil(try reader.next())
    }

    func testLineAtTheLimitIsAccepted() throws {
        let exact = String(repeating: "z", count: 10)
        let path = StreamTestFiles.write("\(exact)\n\(exact)\r\n\(exact)z\n\(exact)", for: self)
        for chunkSize in [1, 3, 7, 11, 64] {
            let reader = try LineReader(path: path, chunkSize: chunkSize, maxLineBytes: 10)
            assertLines(try readAll(reader), [(1, exact), (2, exact), (3, nil), (4, exact)])
        }
    }

    func testBufferStaysWithinChunkPlusMaxLine() throws {
        var text = ""
        for index in 0 ..< 2000 { text += String(repeating: "a", count: index % 300) + "\n" }
        let path = StreamTestFiles.write(text, for: self)
        let reader = try LineReader(path: path, chunkSize: 1024, maxLineBytes: 200)
        var tooLong = 0
        var read = 0
        while true {
            do {
                guard try reader.next() != nil else { break }
                read += 1
            } catch StreamError.lineTooLong {
                tooLong += 1
            }
            XCTAssertLessThanOrEqual(reader.bufferCapacity, 1024 + 200 + 1)
        }
        XCTAssertEqual(reader.lineNumber, 2000)
        XCTAssertEqual(read + tooLong, 2000 - 7, "7 empty lines (index % 300 == 0)")
        XCTAssertEqual(tooLong, (0 ..< 2000).filter { $0 % 300 > 200 }.count)
    }

    func testMatchesAReferenceSplitterOnRandomInput() throws {
        var random = StreamTestRandom(seed: 42)
        let alphabet: [UInt8] = Array("ab \t\r\n\n{}\"é".utf8)
        for round in 0 ..< 60 {
            let count = Int.random(in: 0 ..< 400, using: &random)
            let bytes = (0 ..< count).map { _ in alphabet.randomElement(using: &random) ?? 0x61 }
            let path = StreamTestFiles.write(bytes, for: self)
            let chunkSize = Int.random(in: 1 ... 16, using: &random)
            let maxLine = Int.random(in: 1 ... 30, using: &random)
            let actual = try readAll(LineReader(path: path, chunkSize: chunkSize, maxLineBytes: maxLine))
            XCTAssertEqual(actual.map(\.0), reference(bytes, maxLine: maxLine).map(\.0), "round \(round)")
            XCTAssertEqual(actual.map(\.1), reference(bytes, maxLine: maxLine).map(\.1), "round \(round)")
        }
    }

    /// The obvious implementation, on the whole input at once.
    private func reference(_ bytes: [UInt8], maxLine: Int) -> [(Int, String?)] {
        var pieces = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
        if pieces.last?.isEmpty == true { pieces.removeLast() }
        var out: [(Int, String?)] = []
        for (index, var piece) in pieces.enumerated() {
            if piece.last == 0x0D { piece.removeLast() }
            if piece.count > maxLine {
                out.append((index + 1, nil))
            } else if !piece.allSatisfy({ [0x20, 0x09, 0x0D, 0x0B, 0x0C].contains($0) }) {
                out.append((index + 1, String(decoding: piece, as: UTF8.self)))
            }
        }
        return out
    }

    func testMissingFileCannotBeOpened() {
        let path = StreamTestFiles.missingPath()
        XCTAssertThrowsError(try LineReader(path: path)) { error in
            XCTAssertEqual(error as? StreamError, .cannotOpen(path: path, reason: "No such file or directory"))
        }
    }

    func testDirectoryCannotBeOpened() throws {
        let path = try ScratchFolder.make("line-reader", removedBy: addTeardownBlock).path
        XCTAssertThrowsError(try LineReader(path: path)) { error in
            XCTAssertEqual(error as? StreamError, .cannotOpen(path: path, reason: "Is a directory"))
            XCTAssertEqual("\(error)", "cannot open '\(path)': Is a directory")
        }
    }
}
