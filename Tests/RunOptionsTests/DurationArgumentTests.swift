import APNsCore
import ArgumentParser
import RunOptions
import XCTest

/// A duration flag parses into a `Duration` itself (`ExpressibleByArgument`), in the grammar profiles and
/// expressions use; text outside it is a usage error naming the flag.
final class DurationArgumentTests: XCTestCase {
    struct Flags: ParsableArguments {
        @Option(help: ArgumentHelp("A wait.", valueName: "DURATION")) var wait: Duration?
        @Option(help: ArgumentHelp("A pause.", valueName: "DURATION")) var pause: Duration = .seconds(5)
    }

    func testAFlagReadsTheGrammar() throws {
        XCTAssertEqual(try Flags.parse(["--wait", "1h30m"]).wait, .seconds(5400))
        XCTAssertEqual(try Flags.parse(["--wait", "250ms"]).wait, .milliseconds(250))
        XCTAssertEqual(try Flags.parse(["--wait", "0"]).wait, .zero, "0: the flag's own rule says what it means")
        XCTAssertEqual(try Flags.parse([]).pause, .seconds(5))
    }

    func testTextOutsideTheGrammarIsAUsageErrorNamingTheFlag() {
        for text in ["10", "soon", "0.1ms", "367d", "1h 30m"] {
            XCTAssertThrowsError(try Flags.parse(["--wait", text])) { error in
                XCTAssertEqual(Flags.message(for: error), "The value '\(text)' is invalid for '--wait <DURATION>'")
                XCTAssertEqual(Flags.exitCode(for: error), .validationFailure)
            }
        }
    }

    func testTheDefaultIsShownAsAUserWritesIt() {
        XCTAssertTrue(Flags.helpMessage().contains("A pause. (default: 5s)"), Flags.helpMessage())
        XCTAssertEqual(Duration.seconds(90).defaultValueDescription, "90s")
    }

    /// The SLO flags that named their unit (`--slo-p99-ms 250`) are read still, hidden from `--help`, with a notice.
    func testAFormerFlagNameIsReadWithANotice() throws {
        let former = try RunSettingOptions.parse(["--slo-p99-ms", "250", "--slo-p99-time-to-device-ms", "60000"])
        XCTAssertEqual(try former.overrides(), try RunSettingOptions.parse(["--slo-p99", "250ms", "--slo-p99-time-to-device", "1m"]).overrides())
        XCTAssertEqual(former.deprecations, ["--slo-p99-ms is deprecated: write --slo-p99 250ms",
                                             "--slo-p99-time-to-device-ms is deprecated: write --slo-p99-time-to-device 1m"])
        XCTAssertEqual(try RunSettingOptions.parse(["--slo-p99", "250ms"]).deprecations, [])
        XCTAssertThrowsError(try RunSettingOptions.parse(["--slo-p99", "1s", "--slo-p99-ms", "250"])) {
            XCTAssertEqual(RunSettingOptions.message(for: $0), "choose one of --slo-p99 and its former name --slo-p99-ms")
        }
        XCTAssertFalse(RunSettingOptions.helpMessage().contains("--slo-p99-ms"))
    }
}
