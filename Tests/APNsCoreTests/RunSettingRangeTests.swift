import APNsCore
import Foundation
import XCTest

/// Each row of ``RunSettings`` states its default and range once: the help says them, a new configuration
/// starts from the default (``RunDefaults`` reads it from the row), and the configuration's check refuses
/// a value just outside the range, naming the setting. Driven from the table, so a new row is covered.
final class RunSettingRangeTests: XCTestCase {
    static let fresh = RunConfig(name: "t", profilePath: "p.yaml", workload: .init(name: "w", stream: "s.ndjson", recipe: "r.yaml", bundleID: "com.x"))

    /// `text` as the profile reader reads a scalar of `kind` (`ProfileLoader`), for the table's loader.
    static func value(_ text: String, _ kind: ProfileRead.Kind) throws -> ProfileRead.Value {
        switch kind {
        case .int: return .int(try XCTUnwrap(Int(text), text))
        case .number: return .number(try XCTUnwrap(Double(text), text))
        case .text: return .text(text)
        case .bool: return .bool(try XCTUnwrap(Bool(text), text))
        case .duration: return .millis(try XCTUnwrap(DurationText.millis(text), text))
        case .wholeSeconds: return .int(Int(try XCTUnwrap(DurationText.millis(text), text) / 1000))
        }
    }

    /// A value of the row's range (a number, in the unit its flag takes) as its loader takes it.
    static func value(_ n: Double, _ kind: ProfileRead.Kind) -> ProfileRead.Value {
        switch kind {
        case .int, .wholeSeconds: return .int(Int(n))
        case .number: return .number(n)
        case .duration: return .millis(Int64(n * 1000))
        case .text: return .text(RunSettingsNumber.text(n))
        case .bool: return .bool(n != 0)
        }
    }

    func testTheHelpStatesEachRangeAndDefault() {
        for row in RunSettings.all {
            if let r = row.range { XCTAssertTrue(row.rule.hasPrefix(r.text), "\(row.key): the rule '\(row.rule)' starts with its range \(r.text)") }
            guard row.flag != nil else { continue }
            if let r = row.range { XCTAssertTrue(row.flagHelp.contains(r.text), "\(row.key): \(row.flagHelp)") }
            if !row.defaultValue.isEmpty { XCTAssertTrue(row.flagHelp.contains("default \(row.defaultValue)"), "\(row.key): \(row.flagHelp)") }
        }
    }

    /// The table's default, set as a profile sets it, leaves a new configuration as it was (or sets a value
    /// the configuration leaves unset and applies as that default); and it lies in the row's range.
    func testEveryDefaultIsTheNewConfigurationsAndInRange() throws {
        var read = 0
        for row in RunSettings.all where !row.defaultValue.isEmpty {
            guard let load = row.load else { continue }
            var c = Self.fresh
            try load.apply(&c, try Self.value(row.defaultValue, load.kind))
            if c != Self.fresh {
                XCTAssertNil(row.profileValue(Self.fresh), "\(row.key): a new configuration has \(row.profileValue(Self.fresh) ?? "?"), "
                    + "the table says \(row.defaultValue)")
            }
            if let r = row.range {
                let n: Double
                switch try Self.value(row.defaultValue, load.kind) {
                case let .int(i): n = Double(i)
                case let .number(d): n = d
                case let .millis(ms): n = Double(ms) / 1000
                default: continue
                }
                XCTAssertTrue(r.contains(n), "\(row.key): default \(row.defaultValue) outside \(r.text)")
            }
            read += 1
        }
        XCTAssertGreaterThanOrEqual(read, 10)
        XCTAssertEqual(Self.fresh.transport.failFastLimit, 10)
        XCTAssertEqual(Self.fresh.transport.stallLimit, 10)
        XCTAssertEqual(Self.fresh.timelineIntervalSeconds, 1)
        XCTAssertEqual(Self.fresh.deliveryMode, .device)
    }

    /// Just outside each range is refused naming the setting; each end is taken unless another rule forbids it.
    func testTheCheckRefusesJustOutsideEachRange() throws {
        var checked = 0
        for row in RunSettings.all {
            guard let r = row.range, let load = row.load else { continue }
            var outside = [r.belowUpper ? r.upper : r.upper + 1]
            if case .wholeSeconds(zeroTurnsOff: true) = load.kind, r.lower - 1 == 0 {} else { outside.append(r.lower - 1) }
            for n in outside {
                var c = Self.fresh
                try load.apply(&c, Self.value(n, load.kind))
                XCTAssertThrowsError(try c.validate(cores: 16), "\(row.key) = \(n)") { error in
                    XCTAssertEqual((error as? RunConfigError)?.key, row.key, "\(row.key) = \(n): \(error)")
                }
            }
            for n in [r.lower, r.belowUpper ? r.upper - 1 : r.upper] {
                var c = Self.fresh
                c.transport.connections = 64
                c.workload.activityModel = RunConfig.ActivityKitModelFile(path: "M.swift", sha256: "00")
                try load.apply(&c, Self.value(n, load.kind))
                do { try c.validate(cores: 16) } catch let e as RunConfigError where e.key == row.key {
                    // The stall watchdog must also be shorter than the push timeout (at most 600 s too).
                    XCTAssertEqual(row.key, .stallTimeout, "\(row.key) = \(n): \(e)")
                } catch {}
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 10)
    }
}

/// The table's way of writing a number (`1`, `0.5`).
enum RunSettingsNumber {
    static func text(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d) }
}
