@testable import apnsbench
import ArgumentParser
import XCTest

/// The flags that named their unit and took a bare number (`--step-seconds 10`, `--abs-floor-ms 30`) are
/// duration flags now (`--step 10s`, `--abs-floor 30ms`); the former names are read still, hidden from
/// `--help`, with a one-line notice naming the new flag.
final class FormerDurationFlagTests: XCTestCase {
    func testSweepStepIsADuration() throws {
        let sweep = try SweepCommand.parse(["p.yaml", "--rate", "1..2", "--step", "1m30s"])
        XCTAssertEqual(sweep.stepLength, .seconds(90))
        XCTAssertEqual(sweep.deprecations, [])
        XCTAssertEqual(try SweepCommand.parse(["p.yaml", "--rate", "1..2"]).stepLength, .seconds(30))
    }

    func testSweepStepSecondsIsReadWithANotice() throws {
        let sweep = try SweepCommand.parse(["p.yaml", "--rate", "1..2", "--step-seconds", "10"])
        XCTAssertEqual(sweep.stepLength, .seconds(10))
        XCTAssertEqual(sweep.deprecations, ["--step-seconds is deprecated: write --step 10s"])
    }

    func testSweepStepRefusals() {
        XCTAssertEqual(refusal(SweepCommand.self, ["p.yaml", "--rate", "1..2", "--step", "2s"]), "--step 2s must be between 3s and 1h")
        XCTAssertEqual(refusal(SweepCommand.self, ["p.yaml", "--rate", "1..2", "--step", "10s", "--step-seconds", "10"]),
                       "choose one of --step and its former name --step-seconds")
        XCTAssertEqual(refusal(SweepCommand.self, ["p.yaml", "--rate", "1..2", "--step-seconds", "4000"]),
                       "--step-seconds 4000.0 must be between 3 and 3600")
    }

    func testCompareAbsFloorIsADuration() throws {
        XCTAssertEqual(try CompareCommand.parse(["a", "b", "--abs-floor", "30ms"]).latencyFloorMillis, 30)
        XCTAssertEqual(try CompareCommand.parse(["a", "b", "--abs-floor", "1.5s"]).latencyFloorMillis, 1500)
        XCTAssertEqual(try CompareCommand.parse(["a", "b"]).latencyFloorMillis, 1)
        XCTAssertNil(try CompareCommand.parse(["a", "b", "--abs-floor", "30ms"]).deprecation)
    }

    func testCompareAbsFloorMsIsReadWithANotice() throws {
        let compare = try CompareCommand.parse(["a", "b", "--abs-floor-ms", "30"])
        XCTAssertEqual(compare.latencyFloorMillis, 30)
        XCTAssertEqual(compare.deprecation, "--abs-floor-ms is deprecated: write --abs-floor 30ms")
        XCTAssertEqual(try CompareCommand.parse(["a", "b", "--abs-floor-ms", "0.5"]).deprecation,
                       "--abs-floor-ms is deprecated: write --abs-floor 0.5ms")
        XCTAssertEqual(refusal(CompareCommand.self, ["a", "b", "--abs-floor", "1ms", "--abs-floor-ms", "30"]),
                       "choose one of --abs-floor and its former name --abs-floor-ms")
    }

    /// Former names are hidden from `--help`; the new flags are shown.
    func testHelpShowsOnlyTheNewFlags() {
        let sweep = SweepCommand.helpMessage(), compare = CompareCommand.helpMessage()
        XCTAssertTrue(sweep.contains("--step <DURATION>"))
        XCTAssertFalse(sweep.contains("--step-seconds"))
        XCTAssertTrue(compare.contains("--abs-floor <DURATION>"))
        XCTAssertFalse(compare.contains("--abs-floor-ms"))
    }

    private func refusal<C: ParsableCommand>(_ command: C.Type, _ arguments: [String]) -> String? {
        do {
            _ = try C.parse(arguments)
            return nil
        } catch {
            return C.message(for: error)
        }
    }
}
