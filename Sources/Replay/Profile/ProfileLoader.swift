import APNsCore
import Foundation
import Yams

/// Reads run profiles strictly into a ``RunConfig``: an unknown key, a wrong type or a value out of range
/// is an error that names the file, the line and the key, so a typo never silently falls back to a
/// default. One-value keys are read and set as the table of run settings says (``RunSettings``,
/// ``ProfileRead``); this file reads the keys with structure (the workload, the schedule, the SLO's classes,
/// the simulator section) itself. Ranges are ``RunConfig``'s own rules, checked once with the command
/// line's values laid over the profile (``Profile/validated(overlaying:cores:)``), a failure named by its line.
public enum ProfileLoader {
    /// Every key a profile may have (``RunSettings``' profile keys).
    public static var knownKeys: [String] { RunSettings.profileKeys }

    /// The keys that name a workload's ActivityKit model (the device contract); in a mix, each part's own.
    public static let activityModelKeys = ["activity_model", "activity_model_type", "date_decoding", "activity_model_flags"]

    /// The keys of one part of `mix:` (each a workload with its own recording, template, push type, app and
    /// ActivityKit model).
    public static let mixPartKeys = ["recipe", "workload", "stream", "push_type", "bundle_id"] + activityModelKeys

    /// Loads `path` and checks it alone; relative `stream` and `template` paths are resolved against the
    /// profile's folder. A run reads it with ``read(path:)`` and checks it once, flags laid over it.
    public static func load(path: String) throws -> RunConfig {
        try read(path: path).validated()
    }

    /// Reads `path` without checking the configuration's rules (``Profile/validated(overlaying:)`` does).
    public static func read(path: String) throws -> Profile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProfileError(file: path, line: nil, message: "cannot read the profile (no such file, or not readable)")
        }
        let profile = try read(yaml: String(decoding: data, as: UTF8.self), file: path)
        for line in profile.deprecations { DeprecationNotice.say(line) }
        return profile
    }

    /// `yaml` read and checked alone, as ``load(path:)``.
    public static func parse(yaml: String, file: String) throws -> RunConfig {
        try read(yaml: yaml, file: file).validated()
    }

    /// `schedule: closed-loop | recorded | rate | ramp` with `speed: X`, `rate: R` or `ramp: FROM:TO:SECONDS`.
    static func schedule(values: [String: Node], file: String) throws -> Schedule {
        func line(_ k: String) -> Int? { values[k]?.mark?.line }
        func number(_ k: String) throws -> Double? {
            guard let node = values[k] else { return nil }
            guard case .scalar = node, let v = node.float else {
                throw ProfileError(file: file, line: line(k), message: "'\(k)' must be a number, found '\(node.string ?? "a collection")'")
            }
            return v
        }
        let kind = values["schedule"]?.string ?? "closed-loop"
        let speed = try number("speed"), rate = try number("rate")
        let ramp = values["ramp"]?.string
        let result: Schedule
        switch kind {
        case "closed-loop": result = .closedLoop
        case "recorded": result = .recorded(speed: speed ?? 1)
        case "rate":
            guard let rate else { throw ProfileError(file: file, line: line("schedule"), message: "'schedule: rate' needs 'rate: PUSHES_PER_SECOND'") }
            result = .fixedRate(perSecond: rate)
        case "ramp":
            guard let ramp else { throw ProfileError(file: file, line: line("schedule"), message: "'schedule: ramp' needs 'ramp: FROM:TO:SECONDS'") }
            do { result = try Schedule.parseRamp(ramp) } catch { throw ProfileError(file: file, line: line("ramp"), message: "\(error)") }
        default:
            throw ProfileError(file: file, line: line("schedule"), message: "'schedule' must be closed-loop, recorded, rate or ramp, found '\(kind)'")
        }
        for (key, given, needs) in [("speed", speed != nil, "recorded"), ("rate", rate != nil, "rate"), ("ramp", ramp != nil, "ramp")]
        where given && kind != needs {
            throw ProfileError(file: file, line: line(key), message: "'\(key)' goes with 'schedule: \(needs)', but the schedule is \(kind)")
        }
        return result
    }

    static func pushType(_ text: String, file: String, line: Int?) throws -> PushType {
        guard let type = PushType(rawValue: text) else {
            throw ProfileError(file: file, line: line, message: "'push_type' must be one of \(PushType.allCases.map(\.rawValue).joined(separator: ", ")), "
                + "found '\(text)'")
        }
        return type
    }

    /// `activity_model: FILE` (resolved like `stream`), with `activity_model_type: NAME` and `date_decoding:
    /// STRATEGY`, among a workload's `fields` (the profile's, or a mix part's, at `place`): the file is read and
    /// parsed now, so a model outside the checker's Swift subset is bad input naming its own file and line.
    static func activityModel(_ fields: [String: Node], place: String, file: String, resolve: (String) -> String) throws -> RunConfig.ActivityKitModelFile? {
        func text(_ key: String) throws -> (String, Int?)? {
            guard let node = fields[key] else { return nil }
            guard case let .scalar(s) = node, !s.string.isEmpty else {
                throw ProfileError(file: file, line: node.mark?.line, message: "'\(place)\(key)' must be a non-empty string")
            }
            return (s.string, node.mark?.line)
        }
        let type = try text("activity_model_type")
        let dates = try text("date_decoding")
        let flags = try modelFlags(fields["activity_model_flags"], key: "\(place)activity_model_flags", file: file)
        guard let (path, line) = try text("activity_model") else {
            let stray = [("activity_model_type", type?.1), ("date_decoding", dates?.1), ("activity_model_flags", fields["activity_model_flags"]?.mark?.line)]
            if let (key, line) = stray.first(where: { fields[$0.0] != nil }) {
                throw ProfileError(file: file, line: line, message: "'\(place)\(key)' goes with '\(place)activity_model', the app's ActivityKit model file")
            }
            return nil
        }
        var decoding = RunConfig.DateDecoding.deferredToDate
        if let (name, line) = dates {
            guard let d = RunConfig.DateDecoding(rawValue: name) else {
                throw ProfileError(file: file, line: line, message: "'\(place)date_decoding' must be one of "
                    + "\(RunConfig.DateDecoding.allCases.map(\.rawValue).joined(separator: ", ")), found '\(name)'")
            }
            decoding = d
        }
        let resolved = resolve(path)
        let (_, sha256) = try ActivityKitModelLoader.read(path: resolved, attributesType: type?.0, flags: flags, profile: file, line: line)
        return RunConfig.ActivityKitModelFile(path: resolved, sha256: sha256, attributesType: type?.0, dateDecoding: decoding, flags: flags)
    }

    /// `activity_model_flags: [DEBUG, BETA]`: a list (possibly empty) of compilation flag names.
    static func modelFlags(_ node: Node?, key: String, file: String) throws -> [String]? {
        guard let node else { return nil }
        guard case let .sequence(items) = node else {
            throw ProfileError(file: file, line: node.mark?.line, message: "'\(key)' must be a list of compilation flag names, e.g. [DEBUG], or [] for none")
        }
        return try items.map { item in
            guard case let .scalar(s) = item, s.string.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil else {
                throw ProfileError(file: file, line: item.mark?.line, message: "'\(key)' lists '\(item.string ?? "a collection")', "
                    + "which is not a compilation flag name")
            }
            return s.string
        }
    }

    /// The recipe a profile names; one that cannot be read is an error at the profile's key, and one that
    /// is wrong an error at the recipe's own line and key.
    /// - Parameter yaml: the profile's text, for a recipe written in it (read from it, not from its file again).
    static func recipe(_ path: String, file: String, line: Int?, key: String, yaml: String? = nil) throws -> Recipe {
        if let yaml, let inline = RecipeLoader.split(path).key { return try RecipeLoader.load(yaml: yaml, file: file, inlineAt: inline) }
        guard FileManager.default.isReadableFile(atPath: RecipeLoader.split(path).file) else {
            throw ProfileError(file: file, line: line, message: "'\(key)' names \(path), which cannot be read")
        }
        return try RecipeLoader.load(path: path)
    }

    /// Whether a node is a mapping (a recipe written in the profile).
    static func isMapping(_ node: Node) -> Bool {
        if case .mapping = node { return true }
        return false
    }

    /// `workload: mix` with `mix:`, a list of 2 to 8 workloads, each `{workload, stream, template, bundle_id,
    /// push_type}` (push type default liveactivity) and optionally its ActivityKit model; the profile's own
    /// `stream`, `template`, `bundle_id`, `push_type` and model keys belong to a single workload and are
    /// refused beside it.
    static func mix(values: [String: Node], file: String, yaml: String, resolve: (String) -> String) throws -> RunConfig.Workload {
        for key in ["stream", "recipe", "bundle_id", "push_type"] + activityModelKeys where values[key] != nil {
            throw ProfileError(file: file, line: values[key]?.mark?.line,
                               message: "'\(key)' belongs to each part of 'mix:' when the workload is mix; move it into the parts")
        }
        guard let node = values["mix"] else {
            throw ProfileError(file: file, line: values["workload"]?.mark?.line,
                               message: "'workload: mix' needs 'mix:', a list of workloads, each {recipe, stream, bundle_id, push_type}")
        }
        guard case let .sequence(items) = node else {
            throw ProfileError(file: file, line: node.mark?.line, message: "'mix' must be a list of workloads, each {recipe, stream, bundle_id, push_type}")
        }
        var parts: [RunConfig.Workload] = []
        for (i, item) in items.enumerated() {
            let place = "mix[\(i)]"
            guard case let .mapping(pairs) = item else {
                throw ProfileError(file: file, line: item.mark?.line, message: "'\(place)' must be a mapping {recipe, stream, bundle_id, push_type}")
            }
            var fields: [String: Node] = [:]
            for (k, v) in pairs {
                guard let key = k.string, mixPartKeys.contains(key) else {
                    throw ProfileError(file: file, line: k.mark?.line,
                                       message: "unknown key '\(k.string ?? "?")' in '\(place)' (a part's keys: \(mixPartKeys.joined(separator: ", ")))"
                                           + NameSuggestion.phrase(for: k.string ?? "", among: mixPartKeys))
                }
                fields[key] = v
            }
            func text(_ key: String, required: Bool = true) throws -> String? {
                guard let v = fields[key] else {
                    if required { throw ProfileError(file: file, line: item.mark?.line, message: "'\(place)' is missing '\(key)'") }
                    return nil
                }
                guard case let .scalar(s) = v, !s.string.isEmpty else {
                    throw ProfileError(file: file, line: v.mark?.line, message: "'\(place).\(key)' must be a non-empty string")
                }
                return s.string
            }
            let recipePath = fields["recipe"].map(isMapping) == true ? RecipeLoader.inlinePath(file, key: "\(place).recipe") : resolve(try text("recipe")!)
            let recipe = try recipe(recipePath, file: file, line: fields["recipe"]?.mark?.line, key: "\(place).recipe", yaml: yaml)
            if let named = try text("workload", required: false), named != recipe.name {
                throw ProfileError(file: file, line: fields["workload"]?.mark?.line,
                                   message: "'\(place).workload' is '\(named)', but its recipe \(recipePath) is '\(recipe.name)'")
            }
            var part = RunConfig.Workload(name: recipe.name, stream: resolve(try text("stream")!), recipe: recipePath, bundleID: try text("bundle_id")!)
            if let t = try text("push_type", required: false) { part.pushType = try pushType(t, file: file, line: fields["push_type"]?.mark?.line) }
            part.activityModel = try activityModel(fields, place: place + ".", file: file, resolve: resolve)
            parts.append(part)
        }
        var workload = RunConfig.Workload(name: RunConfig.Workload.mixName, stream: "", recipe: "", bundleID: "")
        workload.mix = parts
        return workload
    }

    /// `yaml` as a configuration, each value of the right type, not yet checked against the rules.
    public static func read(yaml: String, file: String) throws -> Profile {
        let p = try ProfileValues(yaml: yaml, file: file)
        var config = RunConfig(name: try p.string("name")!, profilePath: file, workload: try workload(p, yaml: yaml))
        config.schedule.mode = try schedule(values: p.values, file: file)
        try p.applySettings(to: &config)
        if let shares = try p.errorShares() { config.slo.maxErrorShare = shares }
        try p.simulatorSection(into: &config)
        do {
            try APNsLatencyModelFile.resolve(&config, relativeTo: (file as NSString).deletingLastPathComponent)
        } catch let e as RunConfigError {
            throw ProfileError(file: file, line: p.values["simulator"]?.mark?.line, message: e.description)
        }
        return Profile(config: config, file: file, lines: p.values.compactMapValues { $0.mark?.line }, deprecations: p.deprecations)
    }

    /// The profile's workload: a mix of parts, or one recipe with its recording, bundle id, push type, model
    /// and dead tokens.
    private static func workload(_ p: ProfileValues, yaml: String) throws -> RunConfig.Workload {
        var workload: RunConfig.Workload
        if p.values["workload"]?.string == RunConfig.Workload.mixName {
            workload = try mix(values: p.values, file: p.file, yaml: yaml, resolve: p.resolve)
        } else {
            if p.values["mix"] != nil { throw p.fail("mix", "goes with 'workload: mix'; the workload is '\(p.values["workload"]?.string ?? "?")'") }
            let recipePath = p.values["recipe"].map(isMapping) == true ? RecipeLoader.inlinePath(p.file, key: "recipe") : p.resolve(try p.string("recipe")!)
            let recipe = try recipe(recipePath, file: p.file, line: p.values["recipe"]?.mark?.line, key: "recipe", yaml: yaml)
            if let named = try p.string("workload", required: false), named != recipe.name {
                throw p.fail("workload", "is '\(named)', but the recipe \(recipePath) is '\(recipe.name)' (the workload is the recipe's; "
                    + "'workload: mix' mixes recipes)")
            }
            workload = RunConfig.Workload(name: recipe.name, stream: p.resolve(try p.string("stream")!), recipe: recipePath,
                                          bundleID: try p.string("bundle_id")!)
            if let t = try p.string("push_type", required: false) { workload.pushType = try pushType(t, file: p.file, line: p.values["push_type"]?.mark?.line) }
            workload.activityModel = try activityModel(p.values, place: "", file: p.file, resolve: p.resolve)
        }
        workload.deadTokens = try p.string("dead_tokens", required: false).map(p.resolve)
        return workload
    }
}

/// A profile as read: its configuration, unchecked, and the line of each of its keys.
public struct Profile: Sendable {
    public let config: RunConfig
    public let file: String
    /// The line of each top-level key.
    public let lines: [String: Int]
    /// One line for each key the profile gives by its former name, naming the key to write instead
    /// (`p.yaml:16: 'push_timeout_ms' is deprecated: write 'push_timeout: 30s'`).
    public var deprecations: [String] = []

    /// The configuration with `overrides` (the command line's values) laid over it, checked once: an
    /// error about a value a flag gave names the flag (``RunConfigFlagError``), one about the profile's
    /// names the profile's file, line and key (``ProfileError``).
    public func validated(overlaying overrides: RunConfigOverrides = RunConfigOverrides(),
                          cores: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> RunConfig {
        var config = self.config.overlaying(overrides)
        do {
            // A model file named on the command line is relative to the working directory.
            if overrides.apnsModel != nil { try APNsLatencyModelFile.resolve(&config, relativeTo: nil) }
            try config.validate(cores: cores)
        } catch let e as RunConfigError {
            if overrides.keys.contains(e.key) { throw RunConfigFlagError(e) }
            throw ProfileError(file: file, line: line(of: e.key), message: e.description)
        }
        return config
    }

    /// Every recording and dead-token list the profile names, checked readable before anything runs: one
    /// that is not is an error naming the profile's file, the key's line and the key.
    public func requireFiles() throws {
        let w = config.workload
        var named: [(key: String, path: String)] = []
        for (i, part) in w.parts.enumerated() { named.append((w.mix == nil ? "stream" : "mix[\(i)].stream", part.stream)) }
        if let dead = w.deadTokens { named.append(("dead_tokens", dead)) }
        for (key, path) in named where !FileManager.default.isReadableFile(atPath: path) {
            let why = FileManager.default.fileExists(atPath: path) ? "not readable" : "no such file"
            throw ProfileError(file: file, line: lines[key.hasPrefix("mix[") ? "mix" : key], message: "'\(key)' names \(path), which cannot be read (\(why))")
        }
    }

    /// The line a failed rule about `key` points at: its key's (the section's for a `simulator.` key, the
    /// mix's for a part's model), else the schedule's.
    func line(of key: ConfigKey) -> Int? {
        let name = RunSettings.all.first { $0.key == key }?.profileKey?.split(separator: ".").first.map(String.init) ?? key.profileKey
        return lines[name] ?? (key == .activityModel ? lines["mix"] : nil) ?? lines["schedule"]
    }
}
