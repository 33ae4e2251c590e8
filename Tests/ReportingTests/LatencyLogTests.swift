import APNsCore
import Foundation
import Histogram
import TestSupport
import XCTest
@testable import Reporting

/// latency.hlog: HdrHistogram's interval-log text, one tag per histogram, every line decoding to the
/// report's own histogram. (The PyPI hdrhistogram package reads it too: InteropTests.)
final class LatencyLogTests: XCTestCase {
    func testHeadersLegendAndOneTagPerHistogram() throws {
        let report = Fixtures.report(from: Fixtures.mixedRecorder())
        let lines = LatencyLog.text(report).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "#[Histogram log format version 1.3]")
        XCTAssertTrue(lines.contains("#[StartTime: 1744797600.000 (seconds since epoch), 2025-04-16T10:00:00Z]"), "\(lines)")
        XCTAssertTrue(lines.contains("#[BaseTime: 1744797600.000 (seconds since epoch)]"))
        XCTAssertTrue(lines.contains(#""StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram""#))

        let data = lines.filter { $0.hasPrefix("Tag=") }
        let tags = data.map { String($0.dropFirst(4).prefix { $0 != "," }) }
        // overall, priorities 5 and 10, push type liveactivity, outcomes delivered/rejected/failed/timedOut;
        // both views each; then one interval line per second with deliveries (seconds 0 and 1).
        let wholeRun = ["", ".priority10", ".priority5", ".pushType.liveactivity",
                        ".outcome.delivered", ".outcome.failed", ".outcome.rejected", ".outcome.timedOut"]
        XCTAssertEqual(tags, wholeRun.flatMap { ["response" + $0, "service" + $0] } + ["response.interval", "response.interval"])
        XCTAssertEqual(Set(tags).count, tags.count - 1, "one tag per histogram; the interval tag repeats per second")
    }

    func testEveryLineDecodesToTheReportsHistogram() throws {
        let report = Fixtures.report(from: Fixtures.mixedRecorder())
        let h = try XCTUnwrap(report.latency.histograms)
        var byTag: [String: [[String]]] = [:]
        for line in LatencyLog.text(report).split(separator: "\n") where line.hasPrefix("Tag=") {
            let fields = line.dropFirst(4).split(separator: ",").map(String.init)
            XCTAssertEqual(fields.count, 5, String(line))
            byTag[fields[0], default: []].append(fields)
        }
        let response = try XCTUnwrap(byTag["response"]?.first)
        XCTAssertEqual(response[1], "0.000")
        XCTAssertEqual(response[2], "31.250", "whole-run lines span the run")
        // Interval_Max in ms: the slowest delivery took 15 000 µs; the encoding keeps its bucket, 15 000 … 15 007.
        XCTAssertEqual(response[3], "15.007")
        XCTAssertEqual(response[4], h.overall.responseTime)
        XCTAssertEqual(byTag["service.outcome.timedOut"]?.first?[4], h.byOutcome["timedOut"]?.serviceTime)

        let intervals = try XCTUnwrap(byTag[LatencyLog.intervalTag])
        XCTAssertEqual(intervals.map { $0[1] }, ["0.000", "1.000"])
        XCTAssertEqual(intervals.map { $0[2] }, ["1.000", "1.000"])
        XCTAssertEqual(intervals.map { $0[4] }, report.timeline.compactMap(\.responseTime))
        var sum = LatencyHistograms.makeHistogram()
        for line in intervals { sum.add(try EncodedHistogram.decode(line[4])) }
        XCTAssertEqual(sum.totalCount, UInt64(report.latency.responseTime.count))
    }

    func testAnEmptyRunWritesHeadersAndItsEmptyHistograms() {
        let text = LatencyLog.text(Fixtures.report(from: RunRecorder()))
        XCTAssertTrue(text.contains("#[BaseTime: "))
        XCTAssertFalse(text.contains("Tag=response.interval"))
        XCTAssertTrue(text.contains("Tag=response,0.000,"), "the overall histograms are written even when empty")
    }

    func testReportWriterWritesTheLogBesideTheReport() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        let report = Fixtures.report(from: Fixtures.mixedRecorder())
        let paths = try ReportWriter.write(report, to: dir)
        XCTAssertEqual(paths[2], dir + "/latency.hlog")
        XCTAssertEqual(try String(contentsOfFile: dir + "/latency.hlog", encoding: .utf8), LatencyLog.text(report))
    }
}
