import APNsCore
import APNsSimulator
import Foundation
import XCTest

/// The configuration file reader against the simulator's table, key by key: each key reads a value at the
/// ends of its range, and refuses one past it or a misspelling of itself, naming its key path.
final class SimulatorConfigTableTests: XCTestCase {
    /// A value of `key`'s kind: the low end of its range (the high end when `high`), as YAML. A `numberFrom`
    /// key takes its upper bound, at least any sibling's.
    static func value(_ key: SimulatorKey, high: Bool = false) -> String {
        switch key.kind {
        case let .integer(r): String(high ? r.upperBound : r.lowerBound)
        case let .number(r): String(high ? r.upperBound : r.lowerBound)
        case let .numberFrom(_, upper): String(upper)
        case .bool: "true"
        case let .choice(values): high ? values.last! : values.first!
        case .text: key.path == "devices.unknown_token_reason" ? "BadDeviceToken" : "com.a"
        case .texts: "[com.a]"
        case .textsByName: "{TEAM1: [com.a]}"
        case let .pair(r): high ? "[\(r.upperBound), \(r.upperBound)]" : "[\(r.lowerBound), \(r.lowerBound)]"
        case let .section(rules) where rules.exactlyOne: SimulatorKeys.children(of: key.path).first.map { "{\($0.key): \(value($0))}" } ?? "{}"
        case .section: "{" + required(key.path).joined(separator: ", ") + "}"
        case let .duration(r, unit): SimulatorKeys.duration((high ? r.upperBound : r.lowerBound) * unit)
        }
    }

    /// The keys a section must have, each at a value of its own (`numberFrom` siblings: 1, at least theirs).
    static func required(_ path: String) -> [String] {
        SimulatorKeys.children(of: path).filter(\.required).map { "\($0.key): \(value($0))" }
    }

    /// `{a: {b: {key: text}}}` for the key at `path`, each section holding what it requires besides.
    static func document(_ path: String, _ text: String, key: String? = nil) -> String {
        let parts = path.split(separator: ".").map(String.init)
        var body = "\(key ?? parts.last!): \(text)"
        for depth in stride(from: parts.count - 1, to: 0, by: -1) {
            let section = parts[..<depth].joined(separator: ".")
            let others = required(section).filter { !$0.hasPrefix(parts[depth] + ":") }
            body = "\(parts[depth - 1]): {" + ([body] + others).joined(separator: ", ") + "}"
        }
        return body
    }

    func error(_ yaml: String) -> SimulatorConfigError? {
        var c = SimulatorConfiguration()
        do { try SimulatorConfigFile.apply(yaml: yaml, file: "sim.yaml", to: &c) } catch { return error as? SimulatorConfigError }
        return nil
    }

    func testEveryKeyReadsItsRangesEndsAndRefusesPastThem() {
        var checked = 0
        for key in SimulatorKeys.all where key.path != "devices.file" {
            // Ten million generated tokens take seconds: the count's high end is left out.
            for high in key.path == "devices.generate.count" ? [false] : [false, true] {
                let yaml = Self.document(key.path, Self.value(key, high: high))
                XCTAssertNil(error(yaml), yaml)
            }
            let past: String? = switch key.kind {
            case let .integer(r) where r.upperBound < Int.max: String(r.upperBound + 1)
            case let .number(r): String(r.upperBound * 2 + 1)
            case let .duration(r, unit): SimulatorKeys.duration((r.upperBound * 2 + 1) * unit)
            default: nil
            }
            guard let past else { continue }
            let yaml = Self.document(key.path, past)
            XCTAssertEqual(error(yaml)?.key, key.path, yaml)
            XCTAssertTrue(error(yaml)?.message.hasPrefix("must be between") ?? false, "\(yaml): \(String(describing: error(yaml)))")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 40)
    }

    func testEveryKeyMisspelledIsRefusedWithTheKeyItMeant() {
        for key in SimulatorKeys.all {
            var typo = Array(key.key)
            typo.remove(at: typo.count / 2)
            let yaml = Self.document(key.path, Self.value(key), key: String(typo))
            let e = error(yaml)
            XCTAssertEqual(e?.key, key.parent.isEmpty ? String(typo) : "\(key.parent).\(String(typo))", yaml)
            XCTAssertTrue(e?.message.hasPrefix("is not a known key") ?? false, "\(yaml): \(String(describing: e))")
        }
    }
}
