import APNsCore
import Foundation
import Replay
import RunOptions
import XCTest

/// Every setting's default, as `--help` prints it, is a value its flag and its profile key both accept, and
/// they read it alike: a duration means the same on the command line and in a profile.
final class SettingDefaultsTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A minimal profile over the shipped leave-requests recording, with `extra` lines.
    func profile(_ extra: String) throws -> RunConfig {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("p.yaml")
        try """
        name: t
        recipe: \(Self.repo.path)/profiles/recipes/leave-requests.yaml
        stream: \(Self.repo.path)/profiles/streams/leave-requests.ndjson
        push_type: liveactivity
        bundle_id: com.example.t
        \(extra)
        """.write(to: path, atomically: true, encoding: .utf8)
        return try ProfileLoader.load(path: path.path)
    }

    func testEveryDefaultReadsAlikeThroughItsFlagAndItsProfileKey() throws {
        var checked: [String] = []
        for row in RunSettings.all {
            guard let flag = RunSettingFlags[row.key], let key = row.profileKey, !row.defaultValue.isEmpty, row.valueName != nil,
                  !RunSettingOptionsTests.declaredElsewhere.contains(flag), !key.contains(".") else { continue }
            let fromFlag = try RunSettingOptions.parse([flag, row.defaultValue]).overrides()
            let base = try profile("")
            let viaFlag = base.overlaying(fromFlag)
            let viaProfile = try profile("\(key): \(row.defaultValue)")
            XCTAssertEqual(row.profileValue(viaFlag), row.profileValue(viaProfile), "\(flag) \(row.defaultValue) and \(key): \(row.defaultValue)")
            checked.append(key)
        }
        XCTAssertTrue(Set(["fail_fast", "stall_timeout", "report_interval"]).isSubset(of: checked), "\(checked)")
    }

    /// A duration's unit is written: a bare number is refused on the command line (the flag parses into a
    /// duration, naming itself) and in a profile (with how to write it).
    func testABareNumberIsRefusedWithTheUnitsToWrite() throws {
        for (flag, key) in [("--fail-fast", "fail_fast"), ("--stall-timeout", "stall_timeout"), ("--report-interval", "report_interval"),
                            ("--coalesce", "coalesce")] {
            XCTAssertThrowsError(try RunSettingOptions.parse([flag, "10"]).overrides()) {
                XCTAssertEqual(RunSettingOptions.message(for: $0), "The value '10' is invalid for '\(flag) <DURATION>'")
            }
            XCTAssertThrowsError(try profile("\(key): 10")) {
                XCTAssertTrue("\($0)".contains("'\(key)' must be a duration") && "\($0)".hasSuffix("'10' has no unit: write 10s or 10ms"), "\(key): \($0)")
            }
        }
        XCTAssertEqual(try RunSettingOptions.parse(["--fail-fast", "10s"]).overrides().failFast, .seconds(10))
        XCTAssertEqual(try profile("fail_fast: 10s").transport.failFast, .seconds(10), "fail_fast: 10s and --fail-fast 10s agree")
        XCTAssertEqual(try profile("stall_timeout: 0").transport.stallTimeout, .zero, "0 turns the watchdog off, without a unit")
    }

    /// A duration kept in whole seconds is refused otherwise by the configuration's one check, naming the flag
    /// that gave it, in the words the profile's key gets.
    func testAFractionOfASecondIsRefusedWhereWholeSecondsAreKept() throws {
        for (flag, key, problem) in [("--report-interval", "report_interval", "must be whole seconds, like 10s or 1m, found '1500ms'"),
                                     ("--stall-timeout", "stall_timeout", "must be whole seconds, like 10s or 1m (0 turns it off), found '1500ms'")] {
            let o = try RunSettingOptions.parse([flag, "1500ms"]).overrides()
            XCTAssertThrowsError(try profile("").overlaying(o).validate(setBy: o)) {
                XCTAssertEqual(($0 as? RunConfigFlagError).map { RunSettingFlags.message($0.error) }, "\(flag) \(problem)", "\($0)")
            }
            XCTAssertThrowsError(try profile("\(key): 1500ms")) { XCTAssertTrue("\($0)".hasSuffix("'\(key)' \(problem)"), "\($0)") }
        }
    }
}
