import Foundation

/// A run's SLO as JUnit XML (`run --junit FILE`), as k6 and Gatling give their thresholds: one `testsuite`
/// named for the run, one `testcase` per rule (classname `apnsbench.slo`, named for what the rule measures
/// and its target, without the run's counts, so that the name is the same in every run), a `failure` for
/// each rule missed with what the run did, and the counts in its message (a rule met: in its `system-out`). A run without an SLO gives an
/// empty suite; a shard's SLO is judged on the merged report, which `system-out` says.
public enum SLOJUnit {
    public static func render(_ report: RunReport) -> String {
        let checks = SLOCheck.checks(report)
        let failures = checks.filter { !$0.met }.count
        var cases: [String] = []
        for c in checks {
            let name = ComparisonJUnit.escape("\(c.name) \(c.target)")
            if c.met {
                cases.append("    <testcase classname=\"apnsbench.slo\" name=\"\(name)\"><system-out>\(ComparisonJUnit.escape(c.line))</system-out></testcase>")
            } else {
                let message = ComparisonJUnit.escape("\(c.what): \(c.actual), target \(c.target)")
                cases.append("""
                        <testcase classname="apnsbench.slo" name="\(name)">
                          <failure type="slo-missed" message="\(message)">\(ComparisonJUnit.escape(c.line))</failure>
                        </testcase>
                    """)
            }
        }
        let suite = ComparisonJUnit.escape("apnsbench run \(report.configuration.name)")
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="apnsbench slo" tests="\(checks.count)" failures="\(failures)" errors="0">
              <testsuite name="\(suite)" tests="\(checks.count)" failures="\(failures)" errors="0" skipped="0">

            """
        out += cases.joined(separator: "\n") + (cases.isEmpty ? "" : "\n")
        let note = SLOCheck.shardNote(report) ?? (checks.isEmpty ? "the run has no SLO" : checks.map(\.line).joined(separator: "\n"))
        out += "    <system-out>\(ComparisonJUnit.escape(note))</system-out>\n  </testsuite>\n</testsuites>\n"
        return out
    }
}
