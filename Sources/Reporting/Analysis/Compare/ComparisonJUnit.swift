import Foundation

/// A ``ComparisonReport`` as JUnit XML for CI systems: one `testsuite`, one `testcase` per metric
/// (classname `apnsbench.compare.count|throughput|latency`), a `failure` element for each regression (and
/// each improvement under `--fail-on-improvement`). Incomparable runs give one failing testcase per
/// difference (classname `apnsbench.compare.comparability`). Warnings and the method go to `system-out`.
public enum ComparisonJUnit {
    public static func render(_ r: ComparisonReport) -> String {
        var cases: [String] = []
        var failures = 0
        if r.verdict == .incomparable {
            for d in r.refusals {
                failures += 1
                cases.append("""
                      <testcase classname="apnsbench.compare.comparability" name="\(escape(d.field))">
                        <failure type="incomparable" message="\(escape("\(d.field) differs: \(d.baseline) vs \(d.new)"))">\(escape(d.description))</failure>
                      </testcase>
                    """)
            }
        } else {
            for row in r.rows {
                let name = "\(escape(row.metric))"
                let fails = row.verdict == .regression || (row.verdict == .improvement && r.failOnImprovement)
                guard fails else {
                    cases.append("    <testcase classname=\"apnsbench.compare.\(row.kind.rawValue)\" name=\"\(name)\"/>")
                    continue
                }
                failures += 1
                let detail = "baseline \(text(row.baseline, row)), new \(text(row.new, row))"
                    + (row.changePercent.map { " (\(ComparisonMarkdown.signed($0, places: 1))%)" } ?? "")
                    + (row.note.map { ": " + $0 } ?? "")
                cases.append("""
                      <testcase classname="apnsbench.compare.\(row.kind.rawValue)" name="\(name)">
                        <failure type="\(row.verdict.rawValue)" message="\(escape(row.metric + " " + row.verdict.rawValue))">\(escape(detail))</failure>
                      </testcase>
                    """)
            }
        }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="apnsbench compare" tests="\(cases.count)" failures="\(failures)" errors="0">
              <testsuite name="apnsbench compare \(escape(r.workload))" tests="\(cases.count)" failures="\(failures)" errors="0" skipped="0">

            """
        out += cases.joined(separator: "\n") + (cases.isEmpty ? "" : "\n")
        let varied = ComparisonMarkdown.variedLine(r).map { [$0] } ?? []
        let systemOut = ([ComparisonMarkdown.headline(r), "latency and throughput: " + r.method.latency, "counts: " + r.method.counts] + varied + r.warnings)
            .joined(separator: "\n")
        out += "    <system-out>\(escape(systemOut))</system-out>\n  </testsuite>\n</testsuites>\n"
        return out
    }

    static func text(_ v: Double?, _ row: ComparisonReport.Row) -> String {
        guard let v else { return "absent" }
        return ComparisonMarkdown.number((v * 1000).rounded() / 1000) + " " + row.unit
    }

    /// Text safe in an XML attribute or element.
    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            default:
                // XML 1.0 forbids most control characters outright.
                if ch.value < 0x20 && ch != "\t" && ch != "\r" { out += " " } else { out.unicodeScalars.append(ch) }
            }
        }
        return out
    }
}
