import APNsCore
import RunOptions
import XCTest

/// The settings' flags are the command line's, one entry per row of ``RunSettings`` the command line sets: the table,
/// its flags and its help stay one list, and an error about a flag's value names the flag as the user wrote it.
final class RunSettingFlagsTests: XCTestCase {
    /// Every row has a flag exactly when the command line lays a value over the profile's, or it says why only the
    /// profile sets it; every row has help; no flag names a setting the table does not have.
    func testEveryRowHasAFlagOrIsProfileOnlyAndHelp() {
        for row in RunSettings.all {
            let flag = RunSettingFlags[row.key]
            XCTAssertEqual(flag != nil, row.overlay != nil, "\(row.key): a flag exactly when the command line sets it")
            XCTAssertTrue(flag != nil || row.profileOnly != nil, "\(row.key) has no flag and does not say why")
            if flag != nil { XCTAssertNil(row.profileOnly, "\(row.key) has a flag and calls itself profile-only") }
            XCTAssertFalse(RunSettingHelp.text[row.key]?.isEmpty ?? true, "\(row.key) has no help")
        }
        XCTAssertTrue(Set(RunSettingFlags.name.keys).isSubset(of: RunSettings.all.map(\.key)))
    }

    func testFlagsAreUniqueAndLong() {
        let flags = Array(RunSettingFlags.name.values)
        XCTAssertEqual(Set(flags).count, flags.count, "\(flags.sorted())")
        for f in flags { XCTAssertTrue(f.hasPrefix("--") && !f.contains("_"), f) }
    }

    /// A flag is its setting's key with dashes (`--fail-fast` for `fail_fast`), but for the few spelled otherwise.
    func testAFlagIsItsKeyUnlessSpelledOtherwise() {
        var spelled: [String: String] = [:]
        for (key, flag) in RunSettingFlags.name where flag != "--" + key.rawValue.replacingOccurrences(of: "_", with: "-") {
            spelled[key.rawValue] = flag
        }
        XCTAssertEqual(spelled, ["schedule": "--closed-loop", "loop_recording": "--loop"])
        XCTAssertEqual(RunSettingFlags[.connections], "--connections")
        XCTAssertNil(RunSettingFlags[.pushTimeout], "a push timeout is the profile's")
    }

    /// The configuration's error carries the key; the command line names the flag, the profile reader the key.
    func testAnErrorAboutAFlagsValueNamesTheFlag() {
        var o = RunConfigOverrides()
        o.streams = 2000
        let c = RunConfig(name: "x", profilePath: "p.yaml", workload: .init(name: "w", stream: "s", recipe: "r.yaml", bundleID: "b"))
        XCTAssertThrowsError(try c.overlaying(o).validate(setBy: o, cores: 2)) { error in
            XCTAssertEqual((error as? RunConfigFlagError).map { RunSettingFlags.message($0.error) },
                           "--streams must be between 1 and 1000 (APNs allows up to about 1000), found 2000")
        }
        XCTAssertEqual(RunSettingFlags.message(RunConfigError(.loopRecording, "needs a duration")), "--loop needs a duration")
        XCTAssertEqual(RunSettingFlags.message(RunConfigError(.pushTimeout, "must be 1ms to 10m")), "push_timeout must be 1ms to 10m",
                       "a setting without a flag is named by its key")
        XCTAssertEqual("\(RunConfigError(.connections, "must be between 1 and 64, found 65"))", "'connections' must be between 1 and 64, found 65")
    }
}
