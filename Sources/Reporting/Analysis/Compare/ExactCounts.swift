import Foundation

/// `compare --exact-counts`: two reports' `pushes` and `events`, field by field, with no tolerance. A change
/// that keeps behaviour (a refactor, a rebuild) leaves every count of the same run identical.
///
/// One split is timing under concurrency, not behaviour: a push to a planted dead token is rejected
/// `Unregistered` when it went out before the token's first 410 came back, and not sent `dead_token` after.
/// With many streams in flight that split varies from run to run while its sum does not, so
/// `deadTokenSplit` compares the sum (`pushes.deadTokenPushes`) and leaves the two fields out.
public enum ExactCounts {
    /// The report sections compared.
    public static let sections = ["pushes", "events"]

    /// One field that differs: its path and each side's value as JSON (`absent` when a side lacks it).
    public struct Difference: Equatable, Sendable, CustomStringConvertible {
        public var field: String
        public var baseline: String
        public var new: String

        public init(field: String, baseline: String, new: String) {
            self.field = field
            self.baseline = baseline
            self.new = new
        }

        public var description: String { "\(field): \(baseline) → \(new)" }
    }

    /// Every field of ``sections`` whose value differs, sorted by path.
    /// - Parameter deadTokenSplit: compare `notSent.dead_token + rejected.Unregistered` as one count.
    public static func differences(baseline: RunReport, new: RunReport, deadTokenSplit: Bool = false) throws -> [Difference] {
        let a = try leaves(baseline, deadTokenSplit: deadTokenSplit)
        let b = try leaves(new, deadTokenSplit: deadTokenSplit)
        return Set(a.keys).union(b.keys).sorted().compactMap { key in
            a[key] == b[key] ? nil : Difference(field: key, baseline: a[key] ?? "absent", new: b[key] ?? "absent")
        }
    }

    /// A report's compared sections as `path → JSON value`.
    static func leaves(_ report: RunReport, deadTokenSplit: Bool) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: try report.encoded()) as? [String: Any] ?? [:]
        var out: [String: String] = [:]
        for section in sections {
            guard var value = object[section] else { continue }
            if deadTokenSplit, section == "pushes", var pushes = value as? [String: Any] {
                var notSent = pushes["notSent"] as? [String: Any] ?? [:]
                var rejected = pushes["rejected"] as? [String: Any] ?? [:]
                let dead = (notSent.removeValue(forKey: "dead_token") as? Int ?? 0)
                    + ((rejected.removeValue(forKey: "Unregistered") as? [String: Any])?["count"] as? Int ?? 0)
                pushes["notSent"] = notSent
                pushes["rejected"] = rejected
                pushes["deadTokenPushes"] = dead
                value = pushes
            }
            flatten(value, path: section, into: &out)
        }
        return out
    }

    private static func flatten(_ value: Any, path: String, into out: inout [String: String]) {
        if let object = value as? [String: Any] {
            if object.isEmpty { out[path] = "{}" }
            for (key, child) in object { flatten(child, path: "\(path).\(key)", into: &out) }
        } else if let array = value as? [Any] {
            if array.isEmpty { out[path] = "[]" }
            for (i, child) in array.enumerated() { flatten(child, path: "\(path)[\(i)]", into: &out) }
        } else {
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            out[path] = data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
        }
    }
}
