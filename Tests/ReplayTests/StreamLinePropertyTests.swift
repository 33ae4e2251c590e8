import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// The property the stream fuzzer (Fuzz/Targets/StreamLineFuzzer.swift) checks, in the normal suite:
/// whatever bytes a line holds, it ends as an event or as a counted bad line, never as a crash, and
/// every line is counted exactly once (events of each class + bad lines == lines). Lines are random
/// bytes and real lines of the shipped streams with random mutations, from a fixed seed, through the
/// real `EventStreamReader` and `WorkloadDriver` of each shipped recipe.
final class StreamLinePropertyTests: XCTestCase {
    /// Lines per workload; with 5 workloads about 10,000 lines in all (a second or two).
    static let linesPerWorkload = 2000
    /// The reader's line limit here: small, so that some lines end as `line_too_long`.
    static let maxLineBytes = 600

    func testEveryLineEndsAsAnEventOrACountedBadLine() throws {
        // Every shipped recipe over its shipped stream; the first five in this order keep their seeds.
        let first = ["leave-requests", "order-changes", "cdbl-leave", "ksr-cranes", "everday-approvals"]
        let workloads = first + RepoFiles.recipeNames.filter { !first.contains($0) }
        XCTAssertEqual(Set(workloads), Set(RepoFiles.recipeNames))
        for (index, workload) in workloads.enumerated() {
            var random = StreamTestRandom(seed: 0xF022 + UInt64(index))
            let shipped = try Self.shippedLines(workload)
            var cursor = 0
            let lines = (0 ..< Self.linesPerWorkload).map { _ in Self.line(from: shipped, at: &cursor, &random) }
            var file: [UInt8] = []
            for line in lines { file += line + [0x0A] }
            let path = StreamTestFiles.write(file, for: self)

            let recipe = try ShippedRecipes.load(workload)
            let ledger = WorkloadLedger()
            let driver = try ledger.driver(RecipeRules(recipe, priority: .immediate), path: path, maxLineBytes: Self.maxLineBytes,
                                           shape: recipe.recordShape)
            ledger.drain(driver)

            XCTAssertNil(driver.readFailure, workload)
            XCTAssertNil(driver.stopError, workload)
            ledger.assertBalanced(linesRead: lines.count)
            let events = driver.events
            XCTAssertEqual(events.producedPushes + events.stateOnly + events.invalidTotal, lines.count, workload)
            // The generator is meant to reach both sides; if it stops doing so, this test checks too little.
            XCTAssertGreaterThan(events.invalidTotal, lines.count / 10, "\(workload): too few bad lines")
            XCTAssertGreaterThan(events.read - events.invalidTotal, lines.count / 10, "\(workload): too few good lines")
        }
    }

    // MARK: - Generating lines

    /// The non-blank lines of a workload's shipped stream.
    static func shippedLines(_ workload: String) throws -> [[UInt8]] {
        let url = AlertTestSupport.repo.appendingPathComponent("profiles/streams/\(workload).ndjson")
        let data = try Data(contentsOf: url)
        return data.split(separator: 0x0A).map { Array($0) }.filter { !$0.isEmpty }
    }

    /// Pieces that make parsers take their rarer paths.
    static let tokens: [[UInt8]] = [
        "\"", "\\", "\\u", "\\ud800", "\\udc00", "\\u00e9", "{", "}", "[", "]", ",", ":", "null", "true", "-0",
        "1e999", "-9223372036854775809", "9223372036854775808", "0.5", "\"at\":", "\"kind\":", "Z", "+25:00",
        "2024-02-29T", "T24:00:00", "\u{FEFF}", "é", "🚀",
    ].map { Array($0.utf8) } + [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x00], [0x0D], [0x1F]]

    /// One line: the next shipped line (in the stream's order, so that times go forward and events find
    /// the state they need), a mutated one, or random bytes. Never blank and never with `\n` inside (one
    /// generated line is one line of the file).
    static func line(from shipped: [[UInt8]], at cursor: inout Int, _ random: inout StreamTestRandom) -> [UInt8] {
        var line: [UInt8]
        let next = shipped[cursor % shipped.count]
        cursor += 1
        switch random.next() % 10 {
        case 0, 1, 2, 3:
            line = next
        case 4:
            line = (0 ..< Int(random.next() % 80)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case 5:
            line = (0 ..< 3).flatMap { _ in shipped[Int(random.next() % UInt64(shipped.count))] }  // long: maybe too long
        default:
            line = next
            for _ in 0 ..< 1 + Int(random.next() % 4) { mutate(&line, &random) }
        }
        line = line.map { $0 == 0x0A ? 0x20 : $0 }
        // A blank line is no line at all for the reader; one more byte makes it a (bad) line.
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C }) { line.append(UInt8(ascii: "x")) }
        return line
    }

    static func mutate(_ line: inout [UInt8], _ random: inout StreamTestRandom) {
        let at = line.isEmpty ? 0 : Int(random.next() % UInt64(line.count))
        switch random.next() % 6 {
        case 0 where !line.isEmpty:
            line[at] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
        case 1 where !line.isEmpty:
            line.removeSubrange(at ..< min(line.count, at + 1 + Int(random.next() % 8)))
        case 2:
            line.insert(contentsOf: tokens[Int(random.next() % UInt64(tokens.count))], at: at)
        case 3 where !line.isEmpty:
            line.removeSubrange(at...)  // truncated
        case 4 where !line.isEmpty:
            let end = min(line.count, at + Int(random.next() % 16))
            line.insert(contentsOf: line[at ..< end], at: at)
        default:
            line.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
        }
    }
}
