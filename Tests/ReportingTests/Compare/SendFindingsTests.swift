import APNsCore
import DeviceDelivery
import XCTest
@testable import Reporting

/// What a sender controls is gated: its pushes by push type, topic and priority, its headers, and the device
/// outcomes; the connections it opens within a tolerance.
final class SendFindingsTests: XCTestCase {
    static let topic = "com.example.app"

    /// 100 alerts at `alertPriority` and 50 background pushes, with expiration and collapse ids as given.
    static func sends(alertPriority: String = "10", withExpiration: Int = 150, withCollapseID: Int = 150, distinct: Int = 150) -> RunReport.Sends {
        RunReport.Sends(total: 150, byClass: [.init(pushType: "alert", topic: topic, priority: alertPriority, count: 100),
                                              .init(pushType: "background", topic: topic, priority: "5", count: 50)],
                        withExpiration: withExpiration, withCollapseID: withCollapseID, distinctCollapseIDs: distinct)
    }

    func compare(_ edit: (inout RunReport) -> Void, base: (inout RunReport) -> Void = { $0.sends = SendFindingsTests.sends() })
        -> ComparisonReport {
        CompareFixtures.compare([CompareFixtures.run("a/report.json", base)],
                                [CompareFixtures.run("b/report.json") { r in base(&r); edit(&r) }])
    }

    func testAPriorityDemotionIsARegressionNamingBothClasses() {
        let r = compare { $0.sends = Self.sends(alertPriority: "5") }
        XCTAssertEqual(r.verdict, .regression)
        let gone = r.row("sent alert com.example.app priority 10")
        XCTAssertEqual(gone?.verdict, .regression)
        XCTAssertEqual(gone?.note, "gone: not sent any more")
        XCTAssertEqual([gone?.baseline, gone?.new], [100, 0])
        let new = r.row("sent alert com.example.app priority 5")
        XCTAssertEqual(new?.verdict, .regression)
        XCTAssertEqual(new?.note, "new: not sent before")
        XCTAssertEqual(r.row("sent background com.example.app priority 5")?.verdict, .unchanged)
    }

    func testTheSameSendsAreUnchanged() {
        let r = compare { _ in }
        XCTAssertEqual(r.verdict, .noRegression)
        for metric in ["sent alert com.example.app priority 10", "sent with apns-expiration", "sent with apns-collapse-id",
                       "distinct apns-collapse-id values"] {
            XCTAssertEqual(r.row(metric)?.verdict, .unchanged, metric)
        }
    }

    func testADroppedExpirationAndANewCollapseIDSchemeAreRegressions() {
        let dropped = compare { $0.sends = Self.sends(withExpiration: 0) }
        XCTAssertEqual(dropped.verdict, .regression)
        XCTAssertEqual(dropped.row("sent with apns-expiration")?.verdict, .regression)
        XCTAssertEqual(dropped.row("sent with apns-expiration")?.note, "gone: not sent any more")
        // One collapse id per device instead of one per push: the share is the same, the ids are not.
        let scheme = compare { $0.sends = Self.sends(distinct: 10) }
        XCTAssertEqual(scheme.verdict, .regression)
        XCTAssertEqual(scheme.row("sent with apns-collapse-id")?.verdict, .unchanged)
        XCTAssertEqual(scheme.row("distinct apns-collapse-id values")?.verdict, .regression)
        XCTAssertEqual(scheme.row("distinct apns-collapse-id values")?.note, "changed: the headers sent differ")
        let fewer = compare { $0.sends = Self.sends(withCollapseID: 75) }
        XCTAssertEqual(fewer.row("sent with apns-collapse-id")?.baseline, 100)
        XCTAssertEqual(fewer.row("sent with apns-collapse-id")?.new, 50)
        XCTAssertEqual(fewer.row("sent with apns-collapse-id")?.verdict, .regression)
    }

    /// A sender's report written before `sends` existed: its classes come from the requests received.
    func testAnOlderSendersReportIsReadByItsRequestsReceived() {
        func received(_ priority: String) -> RunReport.Received {
            RunReport.Received(requests: [.init(pushType: "alert", topic: Self.topic, priority: priority, answer: "200", count: 90),
                                          .init(pushType: "alert", topic: Self.topic, priority: priority, answer: "BadDeviceToken", count: 10)],
                               providerTokens: .init(verified: 1, tooManyUpdates: 0, expired: 0, invalidOrMissing: 0),
                               connections: .init(opened: 1, closed: 1, requestsPerConnection: [100]), liveActivityBudget: nil)
        }
        let r = compare({ $0.received = received("5") }, base: { $0.received = received("10") })
        XCTAssertEqual(r.row("sent alert com.example.app priority 10")?.baseline, 100)
        XCTAssertEqual(r.row("sent alert com.example.app priority 10")?.verdict, .regression)
        XCTAssertNil(r.row("sent with apns-expiration"), "no header counts in either report: no row")
    }

    func device(onTime: Int, late: Int) -> RunReport.DeviceDelivery {
        let none = RunReport.DeviceDelivery.TimeToDevice(byPriority: [:], byPushType: [:], histograms: .init(byPriority: [:], byPushType: [:]))
        return RunReport.DeviceDelivery(parameters: DeviceDeliveryParameters(), pushes: onTime + late, outcomes: ["on_time": onTime, "late": late],
                                replaced: [:], dropped: [:], shownStale: 0, timeToDevice: none)
    }

    /// A run's device section is in recorded time: any change of a share is a finding.
    func testARunsDeviceSharesAreJudgedExactly() {
        let r = compare({ $0.device = self.device(onTime: 99, late: 1) }, base: { $0.device = self.device(onTime: 100, late: 0) })
        XCTAssertEqual(r.row("device on_time share")?.verdict, .regression)
        XCTAssertEqual(r.row("device late share")?.verdict, .regression)
        XCTAssertEqual(r.row("device dropped share")?.verdict, .unchanged)
    }

    /// A sender's device section runs on the wall clock: a share moves with its pace, and is judged past a floor.
    func testASendersDeviceSharesAreJudgedPastTheirFloor() {
        let received = RunReport.Received(requests: [], providerTokens: .init(verified: 1, tooManyUpdates: 0, expired: 0, invalidOrMissing: 0),
                                          connections: .init(opened: 1, closed: 1, requestsPerConnection: [100]), liveActivityBudget: nil)
        let base: (inout RunReport) -> Void = { $0.received = received; $0.device = self.device(onTime: 100, late: 0) }
        let small = compare({ $0.device = self.device(onTime: 99, late: 1) }, base: base)
        XCTAssertEqual(small.row("device on_time share")?.verdict, .withinTolerance)
        XCTAssertEqual(small.row("device on_time share")?.note, "within 2 points (a sender's device shares move with its pace)")
        let demoted = compare({ $0.device = self.device(onTime: 10, late: 90) }, base: base)
        XCTAssertEqual(demoted.row("device on_time share")?.verdict, .regression)
        XCTAssertEqual(demoted.row("device late share")?.verdict, .regression)
        XCTAssertEqual(demoted.verdict, .regression)
    }

    func testShardsSendsAddUp() {
        let merged = RunReport.Sends.merged([Self.sends(), Self.sends(alertPriority: "5", withExpiration: 0)])
        XCTAssertEqual(merged?.total, 300)
        XCTAssertEqual(merged?.byClass.map { "\($0.label): \($0.count)" }, [
            "alert com.example.app priority 10: 100", "alert com.example.app priority 5: 100", "background com.example.app priority 5: 100",
        ])
        XCTAssertEqual(merged?.withExpiration, 150)
        XCTAssertNil(RunReport.Sends.merged([]))
    }

    func testConnectionsOpenedAreJudgedWithinATolerance() {
        let one = compare({ $0.engine.connectionsOpened = 2 }, base: { $0.engine.connectionsOpened = 1 })
        XCTAssertEqual(one.row("connections opened")?.verdict, .withinTolerance)
        XCTAssertEqual(one.row("connections opened")?.note,
                       "within ±1 (connections opened depend on timing: 10% of the baseline, at least 1)")
        XCTAssertEqual(one.verdict, .noRegression)
        let many = compare({ $0.engine.connectionsOpened = 23 }, base: { $0.engine.connectionsOpened = 20 })
        XCTAssertEqual(many.row("connections opened")?.verdict, .regression)
        let fewer = compare({ $0.engine.connectionsOpened = 17 }, base: { $0.engine.connectionsOpened = 20 })
        XCTAssertEqual(fewer.row("connections opened")?.verdict, .improvement)
    }
}
