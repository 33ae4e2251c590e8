import Foundation
import Harness
import Reporting
import TestSupport
import XCTest

/// `report.html` of a real run, loaded by a real browser: headless Chromium (Debian's `chromium`, installed
/// by `scripts/install-deps.sh --test`) takes a screenshot and dumps the DOM after the page's script ran.
/// Fails on any console message (the page logs nothing, so any is an error: a script error, a blocked
/// fetch), on a missing section, on a chart drawn with no data, and on a blank screenshot.
///
/// Skipped when chromium is missing, except under `CI=true`, where a missing browser is a failure.
final class HtmlReportBrowserTests: XCTestCase {
    struct BrowserMissing: Error, CustomStringConvertible { let description: String }

    var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("html", removedBy: addTeardownBlock)
    }

    /// Chromium's path, or a skip (a failure under CI=true) saying how to get it.
    func chromium() throws -> String {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/chromium"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        let message = "chromium is not installed: run scripts/install-deps.sh --test (apt package chromium)"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            throw BrowserMissing(description: message + "; under CI=true the browser test may not be skipped")
        }
        throw XCTSkip(message)
    }

    /// Runs chromium headless on `page` with `extra` arguments, waited for with a bound; its exit status,
    /// standard output and standard error.
    func runChromium(_ chromium: String, _ extra: [String], page: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let browser = try ChildProcess(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                                                  "--user-data-dir=\(scratch.appendingPathComponent("chromium-profile").path)"] + extra + [page.absoluteString],
                                       separateErrors: true)
        let status = try browser.wait(bound: 180)
        return (status, browser.output.text, browser.errors?.text ?? "")
    }

    /// Console messages and uncaught errors in chromium's log; its own dbus, GPU and sandbox noise is not either.
    static func consoleLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") || $0.contains("CONSOLE(") || $0.contains("Uncaught") }
    }

    func testChromiumLoadsTheReportOfARealRunWithoutErrors() throws {
        let chromium = try chromium()
        // A real run: a small order-changes recording against the embedded simulator, paced so the timeline
        // has several seconds, with coalescing on and an SLO, so every section has something to show.
        let profile = try OrderChangesFixture.profile(in: scratch, name: "oc-browser", lines: 600,
                                                      settings: "streams: 50\nschedule: rate\nrate: 400\ncoalesce: 200ms\nslo_p99: 1s\n"
                                                          + "slo_min_delivered: 0.5\n")
        var request = RunRequest(profilePath: profile)
        request.outDirectory = scratch.appendingPathComponent("out").path
        let result = try ReplayRun.execute(request, log: { _ in })
        XCTAssertGreaterThan(result.report.timeline.count, 1, "several seconds of timeline")
        let page = URL(fileURLWithPath: request.outDirectory).appendingPathComponent(ReportWriter.htmlFileName)
        XCTAssertEqual(result.reportPaths.last, page.path)

        let png = scratch.appendingPathComponent("report.png")
        let shot = try runChromium(chromium, ["--hide-scrollbars", "--screenshot=\(png.path)", "--window-size=1200,3000"], page: page)
        XCTAssertEqual(shot.status, 0, "chromium --screenshot exited \(shot.status):\n\(shot.stderr.suffix(2_000))")
        XCTAssertEqual(Self.consoleLines(shot.stderr), [], "console messages while taking the screenshot")

        let dump = try runChromium(chromium, ["--dump-dom"], page: page)
        XCTAssertEqual(dump.status, 0, "chromium --dump-dom exited \(dump.status):\n\(dump.stderr.suffix(2_000))")
        XCTAssertEqual(Self.consoleLines(dump.stderr), [], "console messages while loading the page")
        let dom = dump.stdout
        XCTAssertTrue(dom.contains("data-ready=\"1\""), "the page's script ran")
        for id in HtmlReport.sectionIDs + ["coalescing", "live-activity", "simulator"] {
            XCTAssertTrue(dom.contains("id=\"\(id)\""), "section \(id) missing from the rendered DOM")
        }
        let charts = dom.components(separatedBy: "<svg").count - 1
        let counts = dom.components(separatedBy: "data-points=\"").dropFirst().map { Int($0.prefix { $0.isNumber }) ?? 0 }
        XCTAssertGreaterThanOrEqual(charts, 4, "spectrum, throughput, latency over time, in flight")
        XCTAssertEqual(counts.count, charts, "every chart says how many points it draws")
        XCTAssertFalse(counts.contains(0), "a chart with no data: \(counts)")

        let bytes = try Data(contentsOf: png)
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        XCTAssertGreaterThan(bytes.count, 50_000, "a page with charts compresses to more than a blank one")
        // IHDR: width and height, big-endian, at bytes 16 and 20.
        func be32(_ at: Int) -> UInt32 { bytes[at..<(at + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        XCTAssertEqual(be32(16), 1200)
        XCTAssertEqual(be32(20), 3000)
    }

    func testConsoleLinesAreFoundAndChromiumNoiseIsNot() {
        let log = """
            [17376:17405:1122/231251.415316:ERROR:dbus/bus.cc:405] Failed to connect to the bus: Failed to connect to socket /run/dbus/system_bus_socket
            [17420:17420:1122/231251.539675:WARNING:media/gpu/vaapi/vaapi_wrapper.cc:1655] drmGetDevices2() has not found any devices
            [17535:17535:1122/231253.141287:INFO:CONSOLE:1] "boom", source: file:///tmp/x.html (1)
            [17535:17535:1122/231253.141840:INFO:CONSOLE:1] "Uncaught ReferenceError: f is not defined", source: file:///tmp/x.html (1)
            """
        XCTAssertEqual(Self.consoleLines(log).count, 2)
    }
}
