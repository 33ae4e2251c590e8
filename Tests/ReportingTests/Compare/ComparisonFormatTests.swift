import Foundation
import XCTest
@testable import Reporting
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The three outputs of a comparison: Markdown (regressions first), JUnit XML (well-formed, one testcase
/// per metric, a failure per regression) and JSON (the same rows, decodable).
final class ComparisonFormatTests: XCTestCase {
    /// A regression (a new 503 reason, fewer delivered), an improvement (fewer connections), the rest unchanged.
    static let mixed: ComparisonReport = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run { r in
        r.pushes.delivered -= 1
        r.pushes.rejected["ServiceUnavailable"] = .init(status: 503, count: 1)
        r.engine.connectionsOpened = 1
    }])

    func tableRows(_ markdown: String) -> [[String]] {
        markdown.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| metric") && !$0.hasPrefix("| ---") }
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    func testMarkdownPutsTheVerdictFirstAndRegressionsAtTheTop() {
        let md = ComparisonMarkdown.render(Self.mixed)
        XCTAssertTrue(md.hasPrefix("### apnsbench compare: ❌ regression — 2 regressions, 1 improvement, "), md)
        XCTAssertTrue(md.contains("| metric | baseline | new | change | change % | verdict | samples (baseline / new) |"), md)
        XCTAssertTrue(md.contains("Latency and throughput: single run per side: tolerances only. Counts: exact."), md)
        let rows = tableRows(md)
        XCTAssertEqual(rows.count, Self.mixed.rows.count)
        XCTAssertEqual(rows.prefix(3).map { $0[0] }, ["delivered", "rejected ServiceUnavailable", "connections opened"])
        XCTAssertEqual(rows[0], ["delivered", "5", "4", "-1", "-20.0%", "❌ regression", ""])
        XCTAssertEqual(rows[1], ["rejected ServiceUnavailable", "0", "1", "+1", "new", "❌ regression (new: not there before)", ""])
        XCTAssertEqual(rows[2], ["connections opened", "3", "1", "-2", "-66.7%", "✅ improvement", ""])
        // Every latency row shows the samples each side rests on.
        let latency = rows.filter { $0[0].contains(" time p") }
        XCTAssertFalse(latency.isEmpty)
        XCTAssertTrue(latency.allSatisfy { $0[6].range(of: #"^\d+ / \d+$"#, options: .regularExpression) != nil }, "\(latency)")
        let verdicts = rows.map(\.[5])
        let firstOther = verdicts.firstIndex { !$0.contains("regression") } ?? verdicts.count
        XCTAssertFalse(verdicts[firstOther...].contains { $0.contains("❌") }, "every regression comes before the rest")
        XCTAssertTrue(rows.contains { $0[0] == "response time p99" && $0[1].hasSuffix(" ms") })
    }

    /// `--summary`: the verdict line and the regressions alone, for a pull-request comment.
    func testSummaryHoldsTheVerdictAndTheRegressionsOnly() {
        let md = ComparisonMarkdown.renderSummary(Self.mixed)
        XCTAssertTrue(md.hasPrefix("### apnsbench compare: ❌ regression — 2 regressions, 1 improvement, "), md)
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| metric") && !$0.hasPrefix("| ---") }
        XCTAssertEqual(rows, ["| delivered | 5 | 4 | -20.0% | ❌ regression |",
                              "| rejected ServiceUnavailable | 0 | 1 | new | ❌ regression (new: not there before) |"], md)
        let clean = ComparisonMarkdown.renderSummary(CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run()]))
        XCTAssertTrue(clean.hasPrefix("### apnsbench compare: ✅ no regression — 0 regressions"), clean)
        XCTAssertFalse(clean.contains("| metric"), "no table without a regression: \(clean)")
    }

    func testMarkdownOfIncomparableRunsNamesEachDifference() {
        let r = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run { $0.configuration.transport.streams = 7; $0.environment.cpuCount = 16 }])
        let md = ComparisonMarkdown.render(r)
        XCTAssertTrue(md.hasPrefix("### apnsbench compare: ⛔ incomparable — the runs differ in 2 ways"), md)
        XCTAssertTrue(md.contains("| `configuration.transport.streams` | 50 | 7 | baseline vs new |"), md)
        XCTAssertTrue(md.contains("| `environment.cpuCount` | 2 | 16 | baseline vs new |"), md)
        XCTAssertFalse(md.contains("| metric |"))
    }

    func testJSONIsTheSameTableAndDecodes() throws {
        let data = try Self.mixed.encoded()
        let back = try JSONDecoder().decode(ComparisonReport.self, from: data)
        XCTAssertEqual(back, Self.mixed)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["verdict"] as? String, "regression")
        let rows = try XCTUnwrap(object["rows"] as? [[String: Any]])
        XCTAssertEqual(rows.first?["metric"] as? String, "delivered")
        XCTAssertEqual(rows.first?["verdict"] as? String, "regression")
        XCTAssertEqual(rows.first?["changePercent"] as? Double, -20)
    }

    final class JUnitCollector: NSObject, XMLParserDelegate {
        var testcases: [(classname: String, name: String)] = []
        var failures: [(name: String, type: String, message: String)] = []
        var suiteAttributes: [String: String] = [:]
        var systemOut = ""
        private var inSystemOut = false
        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            switch element {
            case "testsuite": suiteAttributes = attributes
            case "testcase": testcases.append((attributes["classname"] ?? "", attributes["name"] ?? ""))
            case "failure": failures.append((testcases.last?.name ?? "", attributes["type"] ?? "", attributes["message"] ?? ""))
            case "system-out": inSystemOut = true
            default: break
            }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { if inSystemOut { systemOut += string } }
        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if element == "system-out" { inSystemOut = false }
        }
    }

    func parse(_ xml: String) throws -> JUnitCollector {
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = JUnitCollector()
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "well-formed XML: \(String(describing: parser.parserError))\n\(xml)")
        return collector
    }

    func testJUnitIsWellFormedWithOneTestcasePerMetricAndAFailurePerRegression() throws {
        let xml = ComparisonJUnit.render(Self.mixed)
        XCTAssertTrue(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites"))
        let j = try parse(xml)
        XCTAssertEqual(j.testcases.count, Self.mixed.rows.count)
        XCTAssertEqual(j.suiteAttributes["tests"], String(Self.mixed.rows.count))
        XCTAssertEqual(j.suiteAttributes["failures"], "2")
        XCTAssertEqual(j.failures.map(\.name), ["delivered", "rejected ServiceUnavailable"])
        XCTAssertEqual(j.failures.map(\.type), ["regression", "regression"])
        XCTAssertTrue(j.testcases.contains { $0.classname == "apnsbench.compare.latency" && $0.name == "response time p99.9 (priority 10)" })
        XCTAssertTrue(j.systemOut.contains("single run per side: tolerances only"), j.systemOut)

        // With --fail-on-improvement the improvement fails too.
        var strict = Self.mixed
        strict.failOnImprovement = true
        XCTAssertEqual(try parse(ComparisonJUnit.render(strict)).failures.map(\.type), ["regression", "regression", "improvement"])
    }

    func testJUnitOfIncomparableRunsHasAFailurePerDifferenceAndEscapesText() throws {
        let r = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run { $0.configuration.workload.name = "a<b & \"c\"" }])
        let j = try parse(ComparisonJUnit.render(r))
        XCTAssertEqual(j.testcases.map(\.classname), ["apnsbench.compare.comparability"])
        XCTAssertEqual(j.failures.first?.type, "incomparable")
        XCTAssertEqual(j.failures.first?.message, "configuration.workload.name differs: leave-requests vs a<b & \"c\"")
    }

    func testVerdictsAndWhetherTheyFail() {
        XCTAssertTrue(Self.mixed.fails)
        let better = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run { $0.engine.connectionsOpened = 1 }])
        XCTAssertEqual(better.verdict, .improvementsOnly)
        XCTAssertFalse(better.fails)
        XCTAssertTrue(ComparisonMarkdown.render(better).hasPrefix("### apnsbench compare: ✅ no regression, improvements only"))
        let strict = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run { $0.engine.connectionsOpened = 1 }],
                                             options: .init(failOnImprovement: true))
        XCTAssertTrue(strict.fails)
    }
}

final class ComparisonNumberTests: XCTestCase {
    func testSignedNumbers() {
        let table: [(value: Double, places: Int?, text: String)] = [
            (1.234, 2, "+1.23"), (-0.5, 2, "-0.50"), (-0.001, 1, "0.0"), (0.001, 1, "0.0"), (0, nil, "0"), (2.5, nil, "+2.5"), (-3, nil, "-3"),
        ]
        for c in table { XCTAssertEqual(ComparisonMarkdown.signed(c.value, places: c.places), c.text, "\(c)") }
        XCTAssertEqual(ComparisonMarkdown.number(0.125), "0.125")
        XCTAssertEqual(ComparisonMarkdown.number(10), "10")
    }
}
