import APNsCore
import XCTest
@testable import Reporting

/// One test per refusal: each difference makes the runs incomparable and is named with both values.
final class ComparabilityTests: XCTestCase {
    func refusal(_ edit: (inout RunReport) -> Void, schemaVersion: Int = 2, file: StaticString = #filePath, line: UInt = #line) -> [Difference] {
        let r = CompareFixtures.compare([CompareFixtures.run("a/report.json")], [CompareFixtures.run("b/report.json", schemaVersion: schemaVersion, edit)])
        XCTAssertEqual(r.verdict, .incomparable, file: file, line: line)
        XCTAssertTrue(r.rows.isEmpty, "nothing is compared", file: file, line: line)
        return r.refusals
    }

    func assertOnly(_ diffs: [Difference], _ field: String, _ baseline: String, _ new: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(diffs.map(\.field), [field], "\(diffs)", file: file, line: line)
        XCTAssertEqual(diffs.first?.baseline, baseline, file: file, line: line)
        XCTAssertEqual(diffs.first?.new, new, file: file, line: line)
        XCTAssertEqual(diffs.first?.between, "baseline vs new", file: file, line: line)
    }

    func testTheSameRunIsComparable() {
        let r = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run()])
        XCTAssertEqual(r.refusals, [])
        XCTAssertEqual(r.verdict, .noRegression)
    }

    func testSchemaVersion() {
        let d = refusal({ _ in }, schemaVersion: 1)
        assertOnly(d, "schemaVersion", "2", "1")
        XCTAssertEqual(d.first?.kind, .schema)
    }

    func testWorkloadName() {
        let d = refusal { $0.configuration.workload.name = "order-changes" }
        assertOnly(d, "configuration.workload.name", "leave-requests", "order-changes")
        XCTAssertEqual(d.first?.kind, .workload)
    }

    /// A mix, as `workload: mix` profiles write it: the fixture's workload and an alert part.
    static func mixed(_ r: inout RunReport, secondPushType: PushType = .alert, secondStream: String = "s2.ndjson") {
        var second = RunConfig.Workload(name: "cdbl-leave", stream: secondStream, recipe: "r2.yaml", bundleID: "com.example.b")
        second.pushType = secondPushType
        var mix = RunConfig.Workload(name: RunConfig.Workload.mixName, stream: "", recipe: "", bundleID: "")
        mix.mix = [r.configuration.workload, second]
        r.configuration.workload = mix
    }

    func testAMixIsItsPartsAndEachPartsKeysAreCompared() {
        // A mix against one of its parts alone: one difference, the workload, not every key of the mix's parts.
        let d = refusal { Self.mixed(&$0) }
        assertOnly(d, "configuration.workload.name", "leave-requests", "mix(leave-requests+cdbl-leave)")
        XCTAssertEqual(d.first?.kind, .workload)
        // The same mix with a part sending another push type: that key, by its place.
        let a = CompareFixtures.run("a/report.json") { Self.mixed(&$0) }
        let b = CompareFixtures.run("b/report.json") { Self.mixed(&$0, secondPushType: .background) }
        let r = CompareFixtures.compare([a], [b])
        XCTAssertEqual(r.verdict, .incomparable)
        XCTAssertEqual(r.refusals.map(\.field), ["configuration.workload.mix[1].pushType"])
        // Where a part's recording lies is not compared (its content is, by the stream digest).
        let moved = CompareFixtures.run("c/report.json") { Self.mixed(&$0, secondStream: "/elsewhere/s2.ndjson") }
        XCTAssertEqual(CompareFixtures.compare([a], [moved]).refusals, [])
    }

    func testStreamHashWhenBothHaveIt() {
        var a = CompareFixtures.run("a/report.json")
        a.report.events.streamSHA256 = String(repeating: "a", count: 64)
        let b = CompareFixtures.run("b/report.json") { $0.events.streamSHA256 = String(repeating: "b", count: 64) }
        let r = CompareFixtures.compare([a], [b])
        XCTAssertEqual(r.verdict, .incomparable)
        XCTAssertEqual(r.refusals.map(\.field), ["events.streamSHA256"])
        XCTAssertEqual(r.refusals.first?.kind, .stream)
        // Only one side has a hash (an older report): not a refusal.
        XCTAssertEqual(CompareFixtures.compare([CompareFixtures.run()], [b]).verdict, .noRegression)
    }

    func testTransportConnectionsStreamsAndWorkers() {
        assertOnly(refusal { $0.configuration.transport.connections = 4 }, "configuration.transport.connections", "2", "4")
        assertOnly(refusal { $0.configuration.transport.streams = 1 }, "configuration.transport.streams", "50", "1")
        assertOnly(refusal { $0.configuration.transport.workers = 2 }, "configuration.transport.workers", "1", "2")
    }

    func testScheduleModeAndDuration() {
        let mode = refusal { $0.configuration.schedule.mode = .fixedRate(perSecond: 500) }
        XCTAssertEqual(Set(mode.map(\.field)), ["configuration.schedule.mode.kind", "configuration.schedule.mode.perSecond"])
        XCTAssertEqual(mode.first { $0.field.hasSuffix("kind") }?.baseline, "closed-loop")
        XCTAssertEqual(mode.first { $0.field.hasSuffix("kind") }?.new, "rate")
        assertOnly(refusal { $0.configuration.schedule.durationSeconds = 10 }, "configuration.schedule.durationSeconds", "60", "10")
        assertOnly(refusal { $0.configuration.schedule.durationSeconds = nil }, "configuration.schedule.durationSeconds", "60", "(absent)")
    }

    func testPriorityCoalescingAndSimulatorMode() {
        assertOnly(refusal { $0.configuration.payload.priority = .powerAware }, "configuration.payload.priority", "10", "5")
        assertOnly(refusal { $0.configuration.coalescing.windowMillis = 250 }, "configuration.coalescing.windowMillis", "(absent)", "250")
        assertOnly(refusal { $0.configuration.simulator.fast = true }, "configuration.simulator.fast", "false", "true")
    }

    func testTargetButNotItsPort() {
        assertOnly(refusal { $0.configuration.target = .sandbox }, "configuration.target", "simulator", "sandbox")
        var a = CompareFixtures.run("a/report.json")
        a.report.configuration.target = .url("http://127.0.0.1:40001")
        let b = CompareFixtures.run("b/report.json") { $0.configuration.target = .url("http://127.0.0.1:40777") }
        XCTAssertEqual(CompareFixtures.compare([a], [b]).refusals, [], "a simulator on a free port has a new port each time")
        let c = CompareFixtures.run("c/report.json") { $0.configuration.target = .url("http://10.0.0.7:40777") }
        XCTAssertEqual(CompareFixtures.compare([a], [c]).refusals.map(\.field), ["configuration.target"])
    }

    func testPathsNamesAndTheSLOAreNotCompared() {
        let r = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run { c in
            c.configuration.name = "renamed"
            c.configuration.profilePath = "/elsewhere/p.yaml"
            c.configuration.workload.stream = "/elsewhere/s.ndjson"
            c.configuration.slo.p99Millis = 5
            c.configuration.reportIntervalSeconds = 10
        }])
        XCTAssertEqual(r.refusals, [])
    }

    /// The ActivityKit model is compared by its digest and date strategy, not by where the file lies; a run
    /// checked against a model and one not checked are not compared.
    func testTheActivityModelByItsDigestAndStrategyNotItsPath() {
        let model = RunConfig.ActivityKitModelFile(path: "profiles/models/A.swift", sha256: "aa11")
        let checked: (inout RunReport) -> Void = { $0.configuration.workload.activityModel = model }
        let moved = CompareFixtures.run("b/report.json") { $0.configuration.workload.activityModel?.path = "/elsewhere/A.swift"; checked(&$0) }
        XCTAssertEqual(CompareFixtures.compare([CompareFixtures.run("a/report.json", checked)], [moved]).refusals, [])
        let edited = CompareFixtures.run("b/report.json") { checked(&$0); $0.configuration.workload.activityModel?.sha256 = "bb22" }
        XCTAssertEqual(CompareFixtures.compare([CompareFixtures.run("a/report.json", checked)], [edited]).refusals.map(\.field),
                       ["configuration.workload.activityModel.sha256"])
        let iso = CompareFixtures.run("b/report.json") { checked(&$0); $0.configuration.workload.activityModel?.dateDecoding = .iso8601 }
        XCTAssertEqual(CompareFixtures.compare([CompareFixtures.run("a/report.json", checked)], [iso]).refusals.map(\.field),
                       ["configuration.workload.activityModel.dateDecoding"])
        XCTAssertFalse(CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run("b/report.json", checked)]).refusals.isEmpty,
                       "checked against a model, and not")
    }

    func testEnvironmentLibcurlNghttp2AndCoresRefusedUnlessAllowed() {
        let edit: (inout RunReport) -> Void = { r in
            r.environment.libcurl = "7.88.1"
            r.environment.nghttp2 = "1.52.0"
            r.environment.cpuCount = 8
            r.environment.hostname = "another-host"   // not compared
        }
        let d = refusal(edit)
        XCTAssertEqual(d.map(\.field), ["environment.libcurl", "environment.nghttp2", "environment.cpuCount"])
        XCTAssertEqual(d.map(\.kind), [.environment, .environment, .environment])
        XCTAssertEqual(d.map(\.new), ["7.88.1", "1.52.0", "8"])

        let allowed = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run("run/report.json", edit)],
            options: .init(allowEnvironmentMismatch: true))
        XCTAssertEqual(allowed.verdict, .noRegression)
        XCTAssertEqual(allowed.warnings.filter { $0.contains("environment differs") }.count, 3, "\(allowed.warnings)")
        XCTAssertTrue(allowed.warnings.contains { $0.contains("environment.libcurl: 8.14.1 vs 7.88.1") }, "\(allowed.warnings)")
    }

    func testRepeatsWithinOneSideMustBeComparable() {
        let a = [CompareFixtures.run("base/1/report.json"), CompareFixtures.run("base/2/report.json") { $0.configuration.transport.streams = 10 }]
        let r = CompareFixtures.compare(a, [CompareFixtures.run()])
        XCTAssertEqual(r.verdict, .incomparable)
        XCTAssertEqual(r.refusals.map(\.field), ["configuration.transport.streams"])
        XCTAssertEqual(r.refusals.first?.between, "baseline runs base/1/report.json and base/2/report.json")
        let n = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run("n/1/report.json"),
            CompareFixtures.run("n/2/report.json") { $0.configuration.workload.name = "x" }])
        XCTAssertEqual(n.refusals.first?.between, "new runs n/1/report.json and n/2/report.json")
    }

    func testEveryDifferenceIsNamedAtOnce() {
        let d = refusal { r in
            r.configuration.transport.streams = 1
            r.configuration.payload.priority = .powerAware
            r.environment.cpuCount = 64
        }
        XCTAssertEqual(d.map(\.field), ["configuration.payload.priority", "configuration.transport.streams", "environment.cpuCount"])
    }

    /// `--differ-on`: the named keys may differ between the sides (what-if), the output names them, and
    /// every other difference still refuses; a side's own repeats must still agree.
    func testDifferOnLetsNamedKeysDifferAndRefusesTheRest() throws {
        var options = Comparison.Options()
        options.differOn = try DifferOn.fields("priority,model")
        let whatIf = CompareFixtures.compare([CompareFixtures.run("a/report.json")], [CompareFixtures.run("b/report.json") {
            $0.configuration.payload.priority = .powerAware
            $0.configuration.simulator.model = "far"
        }], options: options)
        XCTAssertNotEqual(whatIf.verdict, .incomparable, "\(whatIf.refusals)")
        XCTAssertEqual(whatIf.varied?.map(\.field), ["configuration.payload.priority", "configuration.simulator.model"])
        XCTAssertTrue(ComparisonMarkdown.render(whatIf).contains("Varied on purpose (--differ-on): `configuration.payload.priority` 10 → 5, "
            + "`configuration.simulator.model` (absent) → far."))
        let other = CompareFixtures.compare([CompareFixtures.run("a/report.json")], [CompareFixtures.run("b/report.json") {
            $0.configuration.payload.priority = .powerAware
            $0.configuration.transport.streams = 7
        }], options: options)
        XCTAssertEqual(other.verdict, .incomparable)
        XCTAssertEqual(other.refusals.map(\.field), ["configuration.transport.streams"])
        let repeats = CompareFixtures.compare([CompareFixtures.run("a/1/report.json"),
            CompareFixtures.run("a/2/report.json") { $0.configuration.payload.priority = .powerAware }],
                                              [CompareFixtures.run("b/report.json")], options: options)
        XCTAssertEqual(repeats.verdict, .incomparable, "a side's repeats must agree even on a varied key")
        XCTAssertThrowsError(try DifferOn.fields("colour")) { XCTAssertTrue("\($0)".contains("'colour' is not a key that can differ on purpose")) }
    }
}
