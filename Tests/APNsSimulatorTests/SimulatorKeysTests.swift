import APNsCore
import DeviceDelivery
@testable import APNsSimulator
import Foundation
import TestSupport
import XCTest

/// The table of the simulator's configuration keys against what it describes: docs/simulator.md's key
/// table, and the configuration's own defaults.
final class SimulatorKeysTests: XCTestCase {
    /// docs/simulator.md's key table, row by row: a key missing from either side, or a row that differs
    /// from the table's, fails, and the message holds the table to paste.
    func testTheDocsKeyTableIsTheTable() throws {
        let docs = try String(contentsOf: RepoFiles.root.appendingPathComponent("docs/simulator.md"), encoding: .utf8)
        let documented = Self.rows(docs)
        XCTAssertFalse(documented.isEmpty, "docs/simulator.md has no table headed \(SimulatorKeys.markdownHeader)")
        let expected = Dictionary(uniqueKeysWithValues: SimulatorKeys.all.map { ("`\($0.path)`", $0.markdownRow) })
        var problems: [String] = []
        for (key, row) in expected.sorted(by: { $0.key < $1.key }) {
            switch documented[key] {
            case nil: problems.append("missing from docs/simulator.md: \(key)")
            case let docRow? where docRow != row: problems.append("differs in docs/simulator.md:\n  docs:  \(docRow)\n  table: \(row)")
            default: break
            }
        }
        for key in documented.keys.sorted() where expected[key] == nil { problems.append("in docs/simulator.md, not a simulator key: \(key)") }
        XCTAssertTrue(problems.isEmpty, problems.joined(separator: "\n") + "\n\nThe table, to paste:\n" + SimulatorKeys.markdownTable)
    }

    /// The rows of the table headed ``SimulatorKeys/markdownHeader`` in `markdown`, by their first cell.
    static func rows(_ markdown: String) -> [String: String] {
        let lines = markdown.components(separatedBy: "\n")
        let header = SimulatorKeys.markdownHeader.components(separatedBy: "\n")
        guard let start = lines.indices.first(where: { lines[$0] == header[0] && lines.indices.contains($0 + 1) && lines[$0 + 1] == header[1] })
        else { return [:] }
        var rows: [String: String] = [:]
        for line in lines[(start + 2)...] {
            guard line.hasPrefix("|") else { break }
            let key = line.dropFirst().split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            rows[key] = line
        }
        return rows
    }

    /// A key's default as docs and help state it is the configuration's own (a new configuration, the
    /// device model on), for every key the table can write.
    func testEachDefaultIsTheConfigurationsOwn() {
        var base = SimulatorConfiguration()
        base.device = DeviceDeliveryParameters()
        var checked = 0
        for key in SimulatorKeys.all {
            guard !key.required, let write = key.write, let value = write(base) else { continue }
            var shown = Self.text(value)
            if let unit = key.unitMillis, case let .double(n) = value { shown = SimulatorKeys.duration(n * unit) }
            XCTAssertEqual(shown, key.defaultText, key.path)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 30)
    }

    /// The device model's keys, by the names reports give them (a duration key's former name), are the ones its
    /// parameters are kept under in a report (their Codable keys).
    func testTheDeviceKeysAreTheDeviceModelsOwn() throws {
        let encoded = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(DeviceDeliveryParameters())) as? [String: Any]
        XCTAssertEqual(Set(try XCTUnwrap(encoded).keys), Set(SimulatorKeys.children(of: "device").map { $0.former ?? $0.key }))
    }

    static func text(_ v: ConfigValue) -> String {
        switch v {
        case let .double(d): SimulatorKeys.number(d)
        case let .int(i): String(i)
        case let .bool(b): String(b)
        case let .string(s): s
        default: v.json
        }
    }

    /// Every key of a section is under a section, a required key has no default, and a numberFrom's sibling comes before it.
    func testTheTableHangsTogether() {
        let paths = SimulatorKeys.all.map(\.path)
        XCTAssertEqual(Set(paths).count, paths.count, "each key once")
        for key in SimulatorKeys.all {
            if !key.parent.isEmpty { XCTAssertTrue(SimulatorKeys[key.parent]?.isSection ?? false, key.path) }
            let siblings = SimulatorKeys.children(of: key.parent).map(\.key)
            if key.required { XCTAssertTrue(key.defaultText.isEmpty, "a required key has no default: \(key.path)") }
            if case let .numberFrom(sibling, _) = key.kind { XCTAssertTrue(siblings.prefix { $0 != key.key }.contains(sibling), key.path) }
            XCTAssertFalse(key.help.contains("|") || key.defaultText.contains("|"), "a table cell holds no '|': \(key.path)")
        }
    }

    /// What the table writes is the configuration's keys that differ from a new one's, nested by path.
    func testTheWriterWritesWhatDiffers() {
        var c = SimulatorConfiguration()
        c.faults.roundTripMilliseconds = 20
        c.faults.latency = .lognormal(p50Milliseconds: 5, p99Milliseconds: 40)
        c.faults.goAwayAfterStreams = 100
        c.threads = 2
        let written = SimulatorKeys.settings(of: c)
        XCTAssertEqual(written, .object([
            "threads": .int(2),
            "faults": .object([
                "round_trip": .string("20ms"), "goaway_after_streams": .int(100),
                "latency": .object(["lognormal_ms": .object(["p50": .double(5), "p99": .double(40)])]),
            ]),
        ]))
        XCTAssertEqual(SimulatorKeys.settings(of: SimulatorConfiguration()), .object([:]))
        XCTAssertEqual(SimulatorKeys.settings(of: SimulatorConfiguration(), always: ["faults.round_trip"]),
                       .object(["faults": .object(["round_trip": .string("0")])]))
    }
}
