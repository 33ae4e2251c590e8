import Foundation
@testable import Reporting
import XCTest

/// The matrix cell's newer columns: filled from a report, in the markdown only when some cell has them,
/// and an older `matrix.json` without them still read.
final class MatrixCellTests: XCTestCase {
    /// The mixed fixture with coalescing, built once (building a report encodes its histograms).
    static let coalescedReport: RunReport = {
        var r = Fixtures.report(from: Fixtures.mixedRecorder())
        r.coalescing = RunReport.Coalescing(windowMillis: 250, pushesSaved: 4,
                                            staleness: LatencySummary(unit: "ms", count: 9, min: 1, p50: 20, p90: 120, p99: 240, p999: 250, max: 250, mean: 48))
        return r
    }()

    static func report() -> RunReport { coalescedReport }

    /// A concurrency sweep on a USL curve (σ 0.05, κ 0.0002, λ 1000), one cell per concurrency.
    static func cells(labels: [String]? = nil) -> [MatrixCell] {
        let ns = [1, 4, 16, 64, 128, 256]
        return ns.enumerated().map { i, n in
            var c = MatrixCell(settings: ["streams": labels?[i] ?? String(n)], directory: "out/\(i)", report: report())
            c.concurrency = n
            c.throughput = 1000 * Double(n) / (1 + 0.05 * Double(n - 1) + 0.0002 * Double(n) * Double(n - 1))
            c.pushesSent = 1000 * (i + 1)
            c.p99Millis = 10 * Double(i + 1)
            c.budgetThrottled = i
            return c
        }
    }

    func testACellTakesTheNewColumnsFromItsReport() {
        let r = Self.report()
        let c = MatrixCell(settings: ["coalesce": "250ms"], directory: "out/1", report: r)
        XCTAssertEqual(c.pushesSaved, 4)
        XCTAssertEqual(c.stalenessP50Millis, 20)
        XCTAssertEqual(c.stalenessP99Millis, 240)
        // The reports' delivered share: of the pushes owed (the coalesced and no_token ones were never owed).
        XCTAssertEqual(c.deliveredShare, Double(r.pushes.delivered) / Double(r.pushes.owed))
        XCTAssertLessThan(r.pushes.owed, r.pushes.planned)
        XCTAssertEqual(c.concurrency, 100, "2 connections × 50 streams")
        XCTAssertEqual(c.throughput, r.throughput.pushesPerSecond)

        let plain = MatrixCell(settings: [:], directory: "out/2", report: Fixtures.report(from: Fixtures.mixedRecorder()))
        XCTAssertNil(plain.pushesSaved, "no coalescing, nothing saved")
        XCTAssertNil(plain.stalenessP99Millis)
    }

    func testMarkdownShowsTheNewColumnsOnlyWhereACellHasThem() throws {
        let cells = Self.cells()
        let md = MatrixCell.markdown(cells)
        let header = try XCTUnwrap(md.split(separator: "\n").first)
        XCTAssertTrue(header.hasSuffix("| channel-API calls | delivered share | concurrency | pushes/s | pushes saved "
            + "| staleness p50 ms | staleness p99 ms |"), String(header))
        XCTAssertTrue(md.contains("| 256 | "), "a concurrency")
        XCTAssertEqual(md.split(separator: "\n")[1].filter { $0 == "|" }.count, header.filter { $0 == "|" }.count, "the rule has every column")

        var old = cells
        for i in old.indices {
            (old[i].pushesSaved, old[i].stalenessP50Millis, old[i].stalenessP99Millis) = (nil, nil, nil)
            (old[i].deliveredShare, old[i].concurrency, old[i].throughput) = (nil, nil, nil)
        }
        XCTAssertTrue(MatrixCell.markdown(old).hasPrefix(
            "| settings | planned | pushes sent | delivered | devices reached | connections | p50 ms | p99 ms | budget-throttled | channel-API calls |\n"
                + "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"), "as before when no cell has them")
    }

    func testAnOlderMatrixJSONStillDecodes() throws {
        let json = try JSONEncoder().encode(Self.cells())
        var objects = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        for i in objects.indices {
            for key in ["pushesSaved", "stalenessP50Millis", "stalenessP99Millis", "deliveredShare", "concurrency", "throughput"] {
                objects[i][key] = nil
            }
        }
        let decoded = try JSONDecoder().decode([MatrixCell].self, from: JSONSerialization.data(withJSONObject: objects))
        XCTAssertEqual(decoded.count, 6)
        XCTAssertNil(decoded[0].concurrency)
        XCTAssertEqual(decoded[0].planned, Self.cells()[0].planned)
    }
}
