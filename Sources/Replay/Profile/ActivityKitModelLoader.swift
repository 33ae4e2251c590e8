import APNsCore
import DeviceContract
import Foundation

/// Reads the app's ActivityKit model file a profile names (`activity_model`): once when the profile is
/// loaded, so that a file outside the checker's Swift subset is bad input naming its own line, and again
/// when the run builds its checks.
public enum ActivityKitModelLoader {
    /// Reads and parses the model file at `path`.
    /// - Parameters:
    ///   - attributesType: the attributes struct's name (`activity_model_type`); nil: the one declaring
    ///     `ActivityAttributes`.
    ///   - flags: the compilation flags the app's build sets (`activity_model_flags`), for `#if`; nil: not given.
    ///   - profile: the profile that names the file, and the line of its key, for errors.
    /// - Returns: the model and the SHA-256 of the bytes it was parsed from.
    /// - Throws: ``ProfileError`` naming the profile's key when the file cannot be read, and naming the model
    ///   file and its line when a declaration is outside the subset or is not a model.
    public static func read(
        path: String, attributesType: String?, flags: [String]? = nil, profile: String, line: Int?
    ) throws -> (model: ActivityKitModel, sha256: String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProfileError(file: profile, line: line, message: "'activity_model' names \(path), which cannot be read (no such file, or not readable)")
        }
        let bytes = [UInt8](data)
        do {
            let conditions = CompilationConditions(flags: flags.map(Set.init), flagsSetting: "'activity_model_flags' (in \(profile))")
            let model = try ModelDeclaration.parse(source: String(decoding: bytes, as: UTF8.self), file: path, attributesType: attributesType,
                                                   conditions: conditions)
            return (model, SHA256Hasher.hex(SHA256Hasher.hash(bytes)))
        } catch {
            throw ProfileError(file: path, line: error.line,
                               message: "\(error.message) (the ActivityKit model that \(profile)\(line.map { ":\($0)" } ?? "") names in 'activity_model')")
        }
    }

    /// The check a run applies for a configured model: the file read again and required to be the one the
    /// profile was loaded with (its SHA-256), under the configured date strategy.
    public static func check(_ file: RunConfig.ActivityKitModelFile, profile: String) throws -> PayloadCheck {
        let (model, sha256) = try read(path: file.path, attributesType: file.attributesType, flags: file.flags, profile: profile, line: nil)
        guard sha256 == file.sha256 else {
            throw ProfileError(file: file.path, line: nil, message: "changed since \(profile) was read (SHA-256 \(sha256.prefix(12))…, "
                + "was \(file.sha256.prefix(12))…)")
        }
        return PayloadCheck(model: model, dateStrategy: dateStrategy(file.dateDecoding))
    }

    /// The checker's strategy for a configured one (the same names).
    public static func dateStrategy(_ decoding: RunConfig.DateDecoding) -> DateStrategy {
        switch decoding {
        case .deferredToDate: return .deferredToDate
        case .secondsSince1970: return .secondsSince1970
        case .millisecondsSince1970: return .millisecondsSince1970
        case .iso8601: return .iso8601
        }
    }
}
