import APNsCore
import Foundation
@testable import Reporting
import XCTest

/// How far the profile's priority (`--priority`, or a varied `priority`) went when the recipe's events carry
/// their own: said in the run's console and the matrix, with `priority_override` suggested when few were reached.
final class PriorityReachTests: XCTestCase {
    static let base = Fixtures.report(from: Fixtures.mixedRecorder())

    func report(own: Int?, override: Bool = false) -> RunReport {
        var r = Self.base
        r.configuration.payload.priority = .powerAware
        r.events.pushesAtOwnPriority = own
        if override { r.configuration.payload.priorityOverride = try? PriorityOverride(text: "5") }
        return r
    }

    func testFewReachedSuggestsTheOverride() {
        let planned = Self.base.pushes.planned
        XCTAssertEqual(SummaryText.priorityReachLine(report(own: planned - 1)),
                       "priority 5 (the profile's, or --priority) reached 1 of \(planned) pushes planned; \(planned - 1) carry their own priority "
                           + "from the recipe: to set every push's priority, use priority_override 5 (--priority-override 5)")
        XCTAssertTrue(SummaryText.console(report(own: planned - 1)).contains("  tuning     priority 5 (the profile's, or --priority) reached 1 of"))
    }

    func testMostReachedSaysSoWithoutTheSuggestion() {
        let planned = Self.base.pushes.planned
        XCTAssertEqual(SummaryText.priorityReachLine(report(own: 1)),
                       "priority 5 (the profile's, or --priority) reached \(planned - 1) of \(planned) pushes planned; 1 carry their own priority "
                           + "from the recipe")
    }

    func testEveryPushReachedOrAnOverrideSaysNothingHere() {
        XCTAssertNil(SummaryText.priorityReachLine(report(own: nil)))
        XCTAssertNil(SummaryText.priorityReachLine(report(own: 3, override: true)), "the override's own line says how far it went")
    }

    func testAVariedPriorityIsCountedInTheMatrixWithTheSuggestion() {
        let planned = Self.base.pushes.planned
        let cells = ["10", "5"].map { MatrixCell(settings: ["priority": $0], directory: "out/\($0)", report: report(own: planned - 2)) }
        XCTAssertEqual(cells[0].priorityReached, 2)
        let md = MatrixCell.markdown(cells)
        XCTAssertTrue(md.contains(" 2 of \(planned) |"), md)
        XCTAssertTrue(md.hasSuffix("\nThe varied priority reached 2 of the \(planned) pushes planned: the others carry their own priority from the recipe; "
                                   + "to set every push's priority, vary priority_override instead (--vary priority_override=10,5).\n"), md)
        XCTAssertNil(MatrixCell(settings: ["streams": "10"], directory: "x", report: report(own: 3)).priorityReached, "priority not varied")
    }

    func testAMatrixCellsBudgetIsTheDeviceModelsWhenItRan() {
        var r = Self.base
        r.liveActivityBudget = RunReport.LiveActivityBudgetCount(priority10PerHour: 10, windowSeconds: 3600, priority10Updates: 100, throttled: 70,
                                                                 activitiesThrottled: 3)
        XCTAssertEqual(MatrixCell(settings: [:], directory: "x", report: r).budgetThrottled, 70, "no device model: the pipeline's count")
    }
}
