import APNsCore
import RunOptions
import XCTest

/// Each row of ``RunSettings`` has its help here, with the command line (``RunSettingHelp``), and none is left over:
/// the table and its help stay one list. A flag's help states its rule, default and profile key from the row.
final class RunSettingHelpTests: XCTestCase {
    func testEverySettingHasHelpAndEveryHelpASetting() {
        for row in RunSettings.all { XCTAssertFalse(RunSettingHelp.text[row.key]?.isEmpty ?? true, "\(row.key) has no help") }
        XCTAssertEqual(Set(RunSettingHelp.text.keys), Set(RunSettings.all.map(\.key)), "help for a setting the table does not have")
    }

    func testTheHelpStatesEachRangeAndDefault() {
        for row in RunSettings.all where RunSettingFlags[row.key] != nil {
            let help = RunSettingHelp.flagHelp(row)
            if let r = row.range { XCTAssertTrue(help.contains(r.text), "\(row.key): \(help)") }
            if !row.defaultValue.isEmpty { XCTAssertTrue(help.contains("default \(row.defaultValue)"), "\(row.key): \(help)") }
        }
    }

    func testFlagHelpStatesRuleDefaultAndProfileKey() {
        XCTAssertEqual(RunSettingHelp.flagHelp(RunSettings[.connections]), "HTTP/2 connections in all. (1-64; default 1) Profile key: connections.")
        XCTAssertEqual(RunSettingHelp.flagHelp(RunSettings[.failFast], statingValues: false),
                       "While no request to the target has ever been answered, give up after DURATION of connect, DNS, TLS or ALPN failures "
                           + "and exit 1 naming the cause. Profile key: fail_fast.")
    }
}
