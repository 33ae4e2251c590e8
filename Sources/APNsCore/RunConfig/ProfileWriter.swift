/// A configuration written back as profile text (YAML), one line per setting the configuration sets, in
/// ``RunSettings``' order: a run of the written profile has the same configuration (but its
/// `profilePath`).
///
/// Paths (`stream`, `template`, `activity_model`, `dead_tokens`, a model file) are written as the
/// configuration holds them: relative to the folder the run started in. A profile resolves relative paths
/// against its own folder, so the written profile reproduces the run when it is saved in that folder.
/// Settings only the command line gives (`--target`, `--allow-production-load`, `--shard`) are left out:
/// they say where and how much of a run goes, and a profile cannot hold them.
public enum ProfileWriter {
    public static func yaml(_ config: RunConfig, source: String? = nil) -> String {
        var lines: [String] = []
        if let source { lines.append("# Written from \(source): the configuration of that run, as a profile.") }
        lines.append("# Paths are relative to the folder the run started in: save this profile there to replay it.")
        var simulator: [String] = []
        for setting in RunSettings.all {
            guard let key = setting.profileKey, let value = setting.profileValue(config) else { continue }
            if key == "simulator" {
                // The section's own keys; `fast` and `model` join them.
                if value != "null", value.hasPrefix("{"), value.count > 2 { simulator.append(String(value.dropFirst().dropLast())) }
            } else if key.hasPrefix("simulator.") {
                simulator.append("\"\(key.dropFirst("simulator.".count))\": \(value)")
            } else {
                lines.append("\(key): \(value)")
            }
        }
        if !simulator.isEmpty { lines.append("simulator: {\(simulator.joined(separator: ", "))}") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a written profile cannot say about `config`: the command-line-only settings it sets.
    public static func left(_ config: RunConfig) -> [String] {
        var out: [String] = []
        if config.target != .simulator { out.append("--target \(config.target)") }
        if config.allowProductionLoad == true { out.append("--allow-production-load") }
        if let s = config.shard { out.append("--shard \(s)") }
        return out
    }
}
