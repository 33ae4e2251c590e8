import APNsCore
import Foundation
import YAMLReading
import Yams

/// An APNs model file (`apnsbench model fit` writes one): a `simulator:` section of the simulator's keys,
/// and a `source:` that says which measured run it was fitted from. `--apns-model FILE` and a profile's
/// `simulator: {model: FILE}` name one, as they name a preset.
public enum APNsLatencyModelFile {
    /// The file's top-level keys.
    public static let keys = ["source", "simulator"]

    /// Reads `path`'s `simulator:` section. Errors name the file and, where there is one, the line.
    public static func settings(path: String) throws -> ConfigValue {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProfileError(file: path, line: nil, message: "the APNs model file cannot be read")
        }
        let reader = StrictYAML.Reader(file: path) { file, line, key, message in
            ProfileError(file: file, line: line, message: key.isEmpty ? message : "'\(key)' \(message)")
        }
        guard let root = try reader.document(String(decoding: data, as: UTF8.self)), case .mapping = root.node else {
            throw ProfileError(file: path, line: nil, message: "must be a mapping with a 'simulator:' section (as apnsbench model fit writes)")
        }
        let top = try reader.map(root)
        for e in top.entries where !keys.contains(e.key) {
            throw ProfileError(file: path, line: e.line, message: "unknown key '\(e.key)' (known: \(keys.joined(separator: ", ")))")
        }
        guard let section = top["simulator"] else {
            throw ProfileError(file: path, line: nil, message: "has no 'simulator:' section")
        }
        let value = try reader.value(section)
        guard case let .object(keys) = value, !keys.isEmpty else {
            throw ProfileError(file: path, line: section.line, message: "'simulator' must be a mapping of the simulator's keys")
        }
        if keys["model"] != nil || keys["fast"] != nil {
            throw ProfileError(file: path, line: section.line, message: "'simulator' of a model file holds the simulator's keys only (no 'model' or 'fast')")
        }
        return value
    }

    /// Reads the file `config.simulator.model` names, when it names no preset: relative to `folder` (the
    /// profile's, for a profile's `model:`; the working directory for `--apns-model`).
    public static func resolve(_ config: inout RunConfig, relativeTo folder: String?) throws {
        guard let model = config.simulator.model, APNsLatencyModel.named(model) == nil else {
            config.simulator.modelFileSettings = nil
            return
        }
        let path = model.hasPrefix("/") || folder == nil ? model : (folder! as NSString).appendingPathComponent(model)
        guard FileManager.default.fileExists(atPath: path) else {
            throw RunConfigError(.apnsModel, "must be one of \(APNsLatencyModel.names.joined(separator: ", ")) or a model file (apnsbench model fit), "
                + "found '\(model)' (no such file)")
        }
        config.simulator.modelFileSettings = try settings(path: path)
    }
}
