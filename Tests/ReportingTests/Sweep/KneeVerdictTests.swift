import Reporting
import XCTest

/// The knee judged by the repeats of its deciding rates.
final class KneeVerdictTests: XCTestCase {
    typealias M = KneeVerdict.Measurement

    func search(_ pairs: [(Double, Bool)]) -> [M] { pairs.map { M(rate: $0.0, passed: $0.1, kind: .search) } }

    func testTheKneeAndTheRateAboveAreRepeatedAndTheBracketSaysHowTheyFared() {
        var m = search([(1000, true), (2000, true), (4000, false), (3000, true), (3500, false)])
        XCTAssertEqual(KneeVerdict.nextRepeat(m, wanted: 2), 3000)
        m += [M(rate: 3000, passed: true, kind: .repeated), M(rate: 3000, passed: true, kind: .repeated)]
        XCTAssertEqual(KneeVerdict.nextRepeat(m, wanted: 2), 3500)
        m += [M(rate: 3500, passed: false, kind: .repeated), M(rate: 3500, passed: false, kind: .repeated)]
        XCTAssertNil(KneeVerdict.nextRepeat(m, wanted: 2))
        let v = KneeVerdict.judge(m)
        XCTAssertEqual(v.knee, 3000)
        XCTAssertEqual(v.above, 3500)
        XCTAssertEqual(v.bracket, "between 3,000 and 3,500 pushes/s (2 of 2 repeats passed at 3,000; 0 of 2 at 3,500)")
    }

    /// One disturbed failure decides nothing: the repeats of the rate above pass, so it becomes the knee.
    func testARateAboveWhoseRepeatsPassBecomesTheKnee() {
        var m = search([(2000, true), (4000, false)])
        m += [M(rate: 2000, passed: true, kind: .repeated), M(rate: 2000, passed: true, kind: .repeated)]
        XCTAssertEqual(KneeVerdict.nextRepeat(m, wanted: 2), 4000)
        m += [M(rate: 4000, passed: true, kind: .repeated), M(rate: 4000, passed: true, kind: .repeated)]
        let v = KneeVerdict.judge(m)
        XCTAssertEqual(v.knee, 4000)
        XCTAssertNil(v.above)
        XCTAssertEqual(v.bracket, "at least 4,000 pushes/s (2 of 2 repeats passed at 4,000; no rate above it failed)")
    }

    /// A knee whose repeats fail moves down; an even split asks for one more repeat.
    func testAKneeWhoseRepeatsFailMovesDownAndASplitIsBrokenByAThird() {
        var m = search([(1000, true), (2000, true), (4000, false)])
        m += [M(rate: 2000, passed: false, kind: .repeated), M(rate: 2000, passed: true, kind: .repeated)]
        XCTAssertEqual(KneeVerdict.judge(m).knee, 1000, "1 of 2 is no majority")
        XCTAssertEqual(KneeVerdict.nextRepeat(m, wanted: 2), 1000)
        m += [M(rate: 1000, passed: true, kind: .repeated), M(rate: 1000, passed: true, kind: .repeated)]
        XCTAssertEqual(KneeVerdict.nextRepeat(m, wanted: 2), 2000, "the split rate above gets its third repeat")
        m.append(M(rate: 2000, passed: false, kind: .repeated))
        XCTAssertNil(KneeVerdict.nextRepeat(m, wanted: 2))
        XCTAssertEqual(KneeVerdict.judge(m).bracket, "between 1,000 and 2,000 pushes/s (2 of 2 repeats passed at 1,000; 1 of 3 at 2,000)")
    }

    /// Repeats that move the knee down leave a wide bracket: the rate halfway is measured, then repeated.
    func testAWideBracketAfterTheRepeatsIsNarrowedByBisecting() throws {
        var m = search([(1000, true), (2000, true), (4000, false), (3000, true)])
        m += [M(rate: 3000, passed: false, kind: .repeated), M(rate: 3000, passed: false, kind: .repeated)]
        m += [M(rate: 2000, passed: true, kind: .repeated), M(rate: 2000, passed: true, kind: .repeated)]
        XCTAssertEqual(KneeVerdict.judge(m).above, 3000)
        let next = try XCTUnwrap(KneeVerdict.next(m, wanted: 2, precision: 0.05))
        XCTAssertEqual(next.rate, 2500)
        XCTAssertEqual(next.kind, .search)
        m.append(M(rate: 2500, passed: true, kind: .search))
        XCTAssertEqual(KneeVerdict.next(m, wanted: 2, precision: 0.05)?.rate, 2500, "the new knee is repeated")
        XCTAssertEqual(KneeVerdict.next(m, wanted: 2, precision: 0.05)?.kind, .repeated)
        XCTAssertNil(KneeVerdict.next(search([(1000, true), (1040, false)]) + [
            M(rate: 1000, passed: true, kind: .repeated), M(rate: 1000, passed: true, kind: .repeated),
            M(rate: 1040, passed: false, kind: .repeated), M(rate: 1040, passed: false, kind: .repeated),
        ], wanted: 2, precision: 0.05), "within the precision: decided")
    }

    func testARemeasurementReplacesTheDisturbedStepAndNoRepeatsMeansNone() {
        let m = search([(1000, true), (2000, false)]) + [M(rate: 2000, passed: true, kind: .remeasure)]
        XCTAssertEqual(KneeVerdict.judge(m).knee, 2000)
        XCTAssertNil(KneeVerdict.nextRepeat(m, wanted: 0))
        XCTAssertNil(KneeVerdict.judge(search([(1000, false)])).knee)
    }
}
