import APNsCore
import XCTest

/// Durations have one grammar wherever they are written: a flag, a profile key, `sweep --vary` and the expression
/// language all read them through ``DurationText/parse(_:)``.
final class DurationTextTests: XCTestCase {
    func testTheGrammarReadsASequenceOfNumbersWithUnits() {
        XCTAssertEqual(DurationText.parse("250ms"), .milliseconds(250))
        XCTAssertEqual(DurationText.parse("1.5s"), .milliseconds(1500))
        XCTAssertEqual(DurationText.parse("5m"), .seconds(300))
        XCTAssertEqual(DurationText.parse("1h30m"), .seconds(5400))
        XCTAssertEqual(DurationText.parse("1m30s250ms"), .milliseconds(90_250))
        XCTAssertEqual(DurationText.parse("-1h30m"), .seconds(-5400))
        XCTAssertEqual(DurationText.parse("0s"), .zero)
    }

    func testTextOutsideTheGrammarIsRefused() {
        for text in ["", "-", "10", "s", "1x", "1.5", "1e3s", "+5s", "1 s", "1h 30m", "1h30", "１s", "inf s", "1hh"] {
            XCTAssertNil(DurationText.parse(text), text)
        }
        XCTAssertNil(DurationText.parse("\(Int64(4e14))s"), "beyond the parse limit")
    }

    /// A setting takes what the grammar reads, above zero and at most a year; the same text means the same there as
    /// in an expression.
    func testASettingTakesTheGrammarsPositiveDurationsUpToAYear() {
        XCTAssertEqual(DurationText.setting(" 1h30m "), .seconds(5400))
        XCTAssertEqual(DurationText.millis("1h30m"), DurationText.parse("1h30m")?.millis)
        XCTAssertNil(DurationText.setting("0s"))
        XCTAssertNil(DurationText.setting("-1s"))
        XCTAssertNil(DurationText.setting("0.1ms"), "rounds to zero")
        XCTAssertEqual(DurationText.millis("\(DurationText.maxMillis)ms"), DurationText.maxMillis)
        XCTAssertNil(DurationText.setting("\(DurationText.maxMillis + 1)ms"))
    }

    func testADurationIsWrittenInTheLargestWholeUnitAndReadBack() {
        for (ms, text) in [(0, "0"), (250, "250ms"), (1500, "1500ms"), (10_000, "10s"), (90_000, "90s"), (300_000, "5m"), (7_200_000, "2h")] {
            let d = Duration.milliseconds(Int64(ms))
            XCTAssertEqual(DurationText.text(d), text)
            if ms > 0 { XCTAssertEqual(DurationText.parse(text), d, text) }
        }
    }

    func testMillisAndSecondsOfADuration() {
        XCTAssertEqual(Duration.milliseconds(-1500).millis, -1500)
        XCTAssertEqual(Duration.milliseconds(1500).secondsValue, 1.5)
        XCTAssertEqual(Duration.secondsRounded(0.0015), .milliseconds(2))
    }
}
