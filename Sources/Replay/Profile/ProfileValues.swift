import APNsCore
import Foundation
import YAMLReading
import Yams

/// A profile's top-level keys as read (each known, else an error naming it and the known ones), with the
/// readers of one key's value (string, whole number, number, duration) that name the key and its line.
struct ProfileValues {
    let file: String
    let reader: StrictYAML.Reader
    let values: [String: Node]
    private let base: String

    init(yaml: String, file: String) throws {
        self.file = file
        reader = StrictYAML.Reader(file: file) { file, line, path, message in
            ProfileError(file: file, line: line, message: path.isEmpty ? message : "'\(path)' \(message)")
        }
        guard let root = try reader.document(yaml), case .mapping = root.node else {
            throw ProfileError(file: file, line: nil, message: "a profile is a mapping of keys to values")
        }
        var values: [String: Node] = [:]
        for entry in try reader.map(root).entries {
            guard ProfileLoader.knownKeys.contains(entry.key) else {
                let moved = entry.key == "template"
                    ? " (each push rule of the recipe names its template now: the profile names its 'recipe:', docs/recipes.md)" : ""
                throw ProfileError(file: file, line: entry.line,
                                   message: "unknown key '\(entry.key)'\(moved) (known keys: \(ProfileLoader.knownKeys.joined(separator: ", ")))"
                                       + NameSuggestion.phrase(for: entry.key, among: ProfileLoader.knownKeys))
            }
            values[entry.key] = entry.node
        }
        self.values = values
        base = (file as NSString).deletingLastPathComponent
    }

    /// A path relative to the profile's folder.
    func resolve(_ p: String) -> String {
        p.hasPrefix("/") || base.isEmpty ? p : (base as NSString).appendingPathComponent(p)
    }

    func fail(_ key: String, _ message: String) -> ProfileError {
        ProfileError(file: file, line: values[key]?.mark?.line, message: "'\(key)' \(message)")
    }

    func string(_ key: String, required: Bool = true) throws -> String? {
        guard let node = values[key] else {
            if required { throw ProfileError(file: file, line: nil, message: "missing required key '\(key)'") }
            return nil
        }
        guard case let .scalar(s) = node, !s.string.isEmpty else { throw fail(key, "must be a non-empty string") }
        return s.string
    }

    func entry(_ key: String) -> StrictYAML.Entry? {
        values[key].map { StrictYAML.Entry(key: key, path: key, line: $0.mark?.line, node: $0) }
    }

    func int(_ key: String) throws -> Int? { try entry(key).map(reader.int) }
    func number(_ key: String) throws -> Double? { try entry(key).map(reader.number) }

    /// A duration key read by the settings' one duration reader (``SettingText/duration(_:_:zeroTurnsOff:wholeSeconds:)``).
    func duration(_ key: String, zeroTurnsOff: Bool = false, wholeSeconds: Bool = false) throws -> Int64? {
        guard let text = try string(key, required: false) else { return nil }
        do {
            return try SettingText.duration(ConfigKey(rawValue: key) ?? .duration, text, zeroTurnsOff: zeroTurnsOff, wholeSeconds: wholeSeconds)
        } catch let e as RunConfigError {
            throw fail(key, e.problem)
        }
    }

    /// Every one-value key, as the table of run settings reads and sets it.
    func applySettings(to config: inout RunConfig) throws {
        for setting in RunSettings.all {
            guard let load = setting.load, let key = setting.profileKey, let node = values[key] else { continue }
            let value: ProfileRead.Value
            switch load.kind {
            case .int: value = .int(try int(key)!)
            case .number: value = .number(try number(key)!)
            case .text: value = .text(try string(key, required: false)!)
            case .bool: value = .bool(try reader.bool(entry(key)!))
            case .duration: value = .millis(try duration(key)!)
            case let .wholeSeconds(zeroTurnsOff):
                value = .int(Int(try duration(key, zeroTurnsOff: zeroTurnsOff, wholeSeconds: true)! / 1000))
            }
            do { try load.apply(&config, value) } catch let e as RunConfigError {
                throw ProfileError(file: file, line: node.mark?.line, message: e.description)
            }
        }
    }

    /// `slo_max_error_share: {rejected: 0.01, timed_out: 0}`: classes and their shares (a class nobody knows is
    /// the configuration's error, later); nil when absent.
    func errorShares() throws -> [String: Double]? {
        guard let node = values["slo_max_error_share"] else { return nil }
        guard case let .mapping(classes) = node else {
            throw fail("slo_max_error_share", "must be a mapping of classes to shares, like {rejected: 0.01, timed_out: 0}")
        }
        var shares: [String: Double] = [:]
        for (k, v) in classes {
            guard let name = k.string, case .scalar = v, let share = v.float else {
                throw ProfileError(file: file, line: k.mark?.line,
                                   message: "'slo_max_error_share' entries must be CLASS: SHARE, found '\(k.string ?? "?")'")
            }
            shares[name] = share
        }
        return shares
    }

    /// `simulator:`: the simulator's own keys (`apnsbench simulate --config`), kept as written for the
    /// simulator's reader to check with this file's lines; `fast` and `model` are the run's.
    func simulatorSection(into config: inout RunConfig) throws {
        guard let node = values["simulator"] else { return }
        guard case var .object(section) = try reader.value(StrictYAML.Entry(key: "simulator", path: "simulator", line: node.mark?.line, node: node)) else {
            throw fail("simulator", "must be a mapping of the simulator's keys (as in apnsbench simulate --config), "
                + "like {faults: {service_unavailable_fraction: 0.02}}")
        }
        guard !section.isEmpty else { throw fail("simulator", "is empty: leave it out for the simulator's defaults (no faults, an answer at once)") }
        if let fast = section.removeValue(forKey: "fast") {
            guard case let .bool(b) = fast else { throw fail("simulator", "key 'fast' must be true or false") }
            config.simulator.fast = b
        }
        if let model = section.removeValue(forKey: "model") {
            guard case let .string(m) = model, !m.isEmpty else {
                throw fail("simulator", "key 'model' must be a name: \(APNsLatencyModel.names.joined(separator: ", "))")
            }
            config.simulator.model = m
        }
        config.simulator.settings = section.isEmpty ? nil : .object(section)
    }
}
