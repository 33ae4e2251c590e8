import APNsCore
import Foundation
@testable import Reporting

/// Reports for the compare tests: the mixed fixture report, with fields changed as each test needs.
enum CompareFixtures {
    static let base: RunReport = Fixtures.report(from: Fixtures.mixedRecorder())

    /// The base report, changed by `edit`, as a loaded report named `path`.
    static func run(_ path: String = "run/report.json", schemaVersion: Int = 2, _ edit: (inout RunReport) -> Void = { _ in }) -> LoadedReport {
        var r = base
        edit(&r)
        return LoadedReport(path: path, schemaVersion: schemaVersion, report: r)
    }

    /// Every latency percentile of every view scaled by `factor` (service and response, overall and per priority).
    static func scaleLatency(_ r: inout RunReport, by factor: Double) {
        func scale(_ s: inout LatencySummary) {
            s.p50 = Int(Double(s.p50) * factor); s.p90 = Int(Double(s.p90) * factor)
            s.p99 = Int(Double(s.p99) * factor); s.p999 = Int(Double(s.p999) * factor)
        }
        scale(&r.latency.responseTime); scale(&r.latency.serviceTime)
        for k in r.latency.byPriority.keys {
            scale(&r.latency.byPriority[k]!.responseTime); scale(&r.latency.byPriority[k]!.serviceTime)
        }
    }

    /// Every latency view's sample count set to `n` (the fixture delivers 5 pushes: too few for any
    /// percentile's change to count).
    static func setSamples(_ r: inout RunReport, to n: Int) {
        r.latency.responseTime.count = n; r.latency.serviceTime.count = n
        for k in r.latency.byPriority.keys {
            r.latency.byPriority[k]!.responseTime.count = n; r.latency.byPriority[k]!.serviceTime.count = n
        }
    }

    static func compare(_ a: [LoadedReport], _ b: [LoadedReport], options: Comparison.Options = .init()) -> ComparisonReport {
        Comparison.compare(baseline: .init(argument: "base", reports: a.map(\.path)), a,
                           new: .init(argument: "new", reports: b.map(\.path)), b, options: options)
    }
}

extension ComparisonReport {
    func row(_ metric: String) -> Row? { rows.first { $0.metric == metric } }
}
