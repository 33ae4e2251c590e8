/// One invariant a report breaks (``RunReport/violations(schemaVersion:)``): the field that is off, what the
/// report's other fields say it must be, and what it holds.
public struct ReportViolation: Sendable, Equatable, CustomStringConvertible {
    /// The field's path in `report.json`, e.g. `pushes.planned` or `timeline[].sent (sum)`.
    public var field: String
    /// What the other fields require, with the rule: `120 (delivered + rejected + failed + timedOut + notSent)`.
    public var expected: String
    /// What the field holds.
    public var found: String

    public init(field: String, expected: String, found: String) {
        self.field = field
        self.expected = expected
        self.found = found
    }

    public var description: String { "\(field): expected \(expected), found \(found)" }
}

/// A report that breaks its invariants, read from `path`: it was edited or damaged after it was written,
/// or the run that wrote it miscounted. Every violation is named.
public struct ReportInvariantError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var violations: [ReportViolation]

    public init(path: String, violations: [ReportViolation]) {
        self.path = path
        self.violations = violations
    }

    public var description: String {
        let n = violations.count
        return "report \(path): \(n) invariant\(n == 1 ? "" : "s") broken (the report was edited or damaged, or its run miscounted):\n"
            + violations.map { "  \(path): \($0)" }.joined(separator: "\n")
    }
}
