import APNsCore
import Foundation
@testable import Reporting
import XCTest

/// `summary.md` of a run with several push kinds and push rules: each kind's push type, topic, priorities and
/// expiration, and every rule's planned, to send and not sent pushes, a rule alone on its event included.
final class SummaryPushKindsTests: XCTestCase {
    private func report() throws -> RunReport {
        var events = EventTally()
        events.record(kind: "order.placed", .producedPushes(4))
        events.record(kind: "order.status", .producedPushes(6))
        events.pushesByRule = ["order.placed": ["new_order": 4], "order.status": ["activity": 4, "ready": 2]]
        events.ruleOutcomes = ["order.placed": ["new_order": .init(toSend: 3, notSent: ["no_recipients": 1])],
                               "order.status": ["activity": .init(toSend: 3, notSent: ["unknown_target": 1]), "ready": .init(toSend: 2)]]
        var report = Fixtures.report(from: RunRecorder(), events: events)
        report.pushKinds = try JSONDecoder().decode([RunReport.PushKind].self, from: Data("""
            [{"pushType": "alert", "topic": "com.example.takeout", "collapseIDPerPush": true, "toSendByPriority": {"10": 5}},
             {"pushType": "liveactivity", "topic": "com.example.takeout.push-type.liveactivity", "expirationPerPush": true,
              "toSendByPriority": {"5": 1, "10": 2}}]
            """.utf8))
        return report
    }

    private func section(_ md: String, _ heading: String) -> String {
        let after = md.components(separatedBy: heading + "\n\n")[1]
        return after.components(separatedBy: "\n## ")[0]
    }

    func testEachPushKindIsARowWithItsTopicPrioritiesAndExpiration() throws {
        let md = SummaryText.markdown(try report())
        XCTAssertEqual(section(md, "## Push kinds"), """
            | push type | topic | priority (pushes) | expiration | collapse id | pushes to send |
            |:--|:--|:--|:--|:--|--:|
            | `alert` | `com.example.takeout` | 10: 5 | none | each push's own | 5 |
            | `liveactivity` | `com.example.takeout.push-type.liveactivity` | 10: 2, 5: 1 | each push's own | none | 3 |

            """)
        let configuration = try XCTUnwrap(md.split(separator: "\n").first { $0.hasPrefix("**Configuration:**") })
        XCTAssertTrue(configuration.contains(" · push type, topic and expiration per push kind (2, below) · "), String(configuration))
        XCTAssertFalse(configuration.contains("no expiration"), String(configuration))
        XCTAssertFalse(configuration.contains("topic `"), String(configuration))
    }

    func testEveryPushRuleIsARowARuleAloneOnItsEventIncluded() throws {
        let events = section(SummaryText.markdown(try report()), "## Events")
        XCTAssertEqual(events.components(separatedBy: "\n\n")[1], """
            | event / push rule | planned | to send | not sent |
            |:--|--:|--:|:--|
            | `order.placed` / new_order | 4 | 3 | 1 (no_recipients 1) |
            | `order.status` / activity | 4 | 3 | 1 (unknown_target 1) |
            | `order.status` / ready | 2 | 2 | 0 |

            """)
    }

    func testARunOfTheProfilesOneKindKeepsItsConfigurationLineAndHasNoKindsTable() throws {
        var report = try report()
        let c = report.configuration
        let expiration = c.payload.expiration.map { "\"expirationSeconds\": \($0.millis / 1000)," } ?? ""
        report.pushKinds = [try JSONDecoder().decode(RunReport.PushKind.self, from: Data("""
            {"pushType": "\(c.workload.pushType.rawValue)", "topic": "\(c.topic)", \(expiration)
             "toSendByPriority": {"10": 5}}
            """.utf8))]
        let md = SummaryText.markdown(report)
        XCTAssertFalse(md.contains("## Push kinds"), md)
        XCTAssertTrue(md.contains(" · topic `\(c.topic)` · "), md)
    }
}
