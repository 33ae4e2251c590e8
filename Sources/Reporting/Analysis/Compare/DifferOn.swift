/// `compare --differ-on KEY,...`: a what-if comparison of runs that differ on purpose in named configuration
/// keys (the same recording against another APNs model, another priority, more connections). Only
/// configuration differences between the two sides can be let through; a side's own repeats, the
/// workload, the recording and the environment must still agree.
public enum DifferOn {
    /// The names `--differ-on` takes, each with the report.json fields it lets differ (a prefix ends in `.`).
    public static let names: [(name: String, fields: [String])] = [
        ("model", ["configuration.simulator."]),
        ("priority", ["configuration.payload.priority"]),
        ("coalescing", ["configuration.coalescing."]),
        ("connections", ["configuration.transport.connections"]),
        ("streams", ["configuration.transport.streams"]),
        ("workers", ["configuration.transport.workers"]),
        ("schedule", ["configuration.schedule."]),
        ("retry", ["configuration.retry."]),
        ("expiration", ["configuration.payload.expirationSeconds"]),
        ("token-refresh", ["configuration.auth.tokenRefreshMinutes"]),
        ("live-activity-budget", ["configuration.liveActivityBudget"]),
    ]

    /// The fields a comma-separated `--differ-on` value names: a name above, or a report.json field path
    /// starting with `configuration.` (itself, or everything under it when it ends in `.`).
    /// - Throws: a message naming the unknown key and the names there are.
    public static func fields(_ text: String) throws -> [String] {
        var out: [String] = []
        for key in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !key.isEmpty {
            if let known = names.first(where: { $0.name == key }) {
                out += known.fields
            } else if key.hasPrefix("configuration."), key.count > "configuration.".count {
                out.append(key)
            } else {
                throw DifferOnError(key: key)
            }
        }
        if out.isEmpty { throw DifferOnError(key: text) }
        return out
    }

    /// Whether `field` is one of `fields` or under one ending in `.`.
    static func covers(_ fields: [String], field: String) -> Bool {
        fields.contains { $0.hasSuffix(".") ? field.hasPrefix($0) : field == $0 || field.hasPrefix($0 + ".") || field.hasPrefix($0 + "[") }
    }
}

public struct DifferOnError: Error, CustomStringConvertible {
    public let key: String
    public var description: String {
        "--differ-on: '\(key)' is not a key that can differ on purpose; use \(DifferOn.names.map(\.name).joined(separator: ", ")) "
            + "or a report.json path such as configuration.payload.expirationSeconds"
    }
}
