import APNsCore
import ArgumentParser
import RunOptions
import XCTest

/// Every flag of the settings `run` and `sweep` share reaches the configuration: given its row's example
/// value (``RunSetting/exampleValue``), `overrides()` carries it, and laid over a new configuration it
/// changes that configuration in its own setting. Driven from ``RunSettings``, so a new row with a flag is
/// covered without a new line here.
final class RunSettingOptionsTests: XCTestCase {
    /// Flags that other option groups declare: the schedule's (`run` and `sweep` each their own) and the shards'.
    static let declaredElsewhere: Set<String> = ["--closed-loop", "--speed", "--rate", "--ramp", "--duration", "--loop", "--shard"]

    static let base = RunConfig(name: "t", profilePath: "p.yaml", workload: .init(name: "w", stream: "s.ndjson", recipe: "r.yaml", bundleID: "com.x"))

    func testEveryFlagReachesItsSetting() throws {
        var checked: [String] = []
        for row in RunSettings.all {
            guard let flag = RunSettingFlags[row.key], !Self.declaredElsewhere.contains(flag) else { continue }
            XCTAssertTrue(row.valueName == nil || row.exampleValue != nil, "\(flag): its row needs an example value (or a range)")
            let arguments = [flag] + (row.exampleValue.map { [$0] } ?? [])
            let options: RunSettingOptions
            do { options = try RunSettingOptions.parse(arguments) } catch {
                XCTFail("\(arguments): \(RunSettingOptions.message(for: error)) (declare the flag in RunSettingOptions, or list it as declared elsewhere)")
                continue
            }
            let o = try options.overrides()
            let changed = Self.base.overlaying(o)
            XCTAssertTrue(changed != Self.base, "\(arguments) changed nothing: overrides() does not carry it")
            XCTAssertTrue(o.keys.isSubset(of: [row.key]), "\(arguments) set \(o.keys), not only \(row.key)")
            // Where the row writes its value as profile text, that text changed: the flag reached its own setting.
            let before = row.profileValue(Self.base), after = row.profileValue(changed)
            if before != nil || after != nil { XCTAssertNotEqual(after, before, "\(arguments) reached another setting than \(row.key)") }
            checked.append(flag)
        }
        XCTAssertGreaterThanOrEqual(checked.count, 20, "\(checked)")
    }

    func testNoFlagGivesNoOverride() throws {
        let o = try RunSettingOptions.parse([]).overrides()
        XCTAssertEqual(Self.base.overlaying(o), Self.base)
        XCTAssertEqual(o.keys, [])
    }

    /// A value the setting's reader refuses is a usage error naming the flag, in the words the profile's key gets.
    func testABadValueNamesTheFlag() {
        for (flag, text, message) in [("--priority", "7", "--priority must be 1, 5 or 10, found '7'"),
                                      ("--coalesce", "soon", "The value 'soon' is invalid for '--coalesce <DURATION>'")] {
            XCTAssertThrowsError(try RunSettingOptions.parse([flag, text])) { error in
                XCTAssertEqual(RunSettingOptions.message(for: error), message)
            }
        }
        XCTAssertThrowsError(try RunSettingOptions.parse(["--delivery", "carrier-pigeon"])) { error in
            XCTAssertTrue(RunSettingOptions.message(for: error).contains("--delivery"), RunSettingOptions.message(for: error))
        }
        XCTAssertEqual(try RunSettingOptions.parse(["--coalesce", "0"]).overrides().coalesce, .zero, "0 turns coalescing off")
    }
}
