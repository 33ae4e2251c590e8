import APNsCore
import Foundation
import Harness
import Reporting
import TestSupport
import XCTest

/// The Live Activity budget end to end: the shipped leave-requests recording (11 hours of recorded time)
/// replayed closed loop and at 3600× its recorded pace gives the same throttled count, since the budget
/// is judged on the recording's clock, not the run's.
final class LiveActivityBudgetReplayTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testTheThrottledCountIsTheSameAtAnySpeed() throws {
        let dir = try ScratchFolder.make("budget")
        defer { ScratchFolder.remove(dir) }
        func run(_ overrides: (inout RunConfigOverrides) -> Void, _ name: String) throws -> RunReport {
            var request = RunRequest(profilePath: Self.repo.appendingPathComponent("profiles/leave-requests.yaml").path)
            request.outDirectory = dir.appendingPathComponent(name).path
            request.overrides.liveActivityBudget = 1
            overrides(&request.overrides)
            return try ReplayRun.execute(request, log: { _ in }).report
        }
        let closed = try run({ _ in }, "closed")
        let paced = try run({ $0.schedule = .recorded(speed: 3600) }, "paced")
        let a = try XCTUnwrap(closed.liveActivityBudget), b = try XCTUnwrap(paced.liveActivityBudget)
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.priority10PerHour, 1)
        XCTAssertGreaterThan(a.throttled, 0, "a request's status changes come within the hour")
        XCTAssertEqual(a.priority10Updates, closed.pushes.planned - (closed.pushes.notSent["no_token"] ?? 0), "every sent update was counted")
        // The simulator's wall-clock check cannot say the same: its count moves with the pace.
        XCTAssertNotEqual(closed.configuration.schedule, paced.configuration.schedule)
        let loaded = try RunReport.load(from: dir.appendingPathComponent("paced/report.json").path)
        XCTAssertEqual(loaded.liveActivityBudget, b)
    }
}
