import Foundation

extension RunReport {
    /// Reads a `report.json`, checking its `schemaVersion` before decoding the rest (schema 2, or schema 1
    /// converted: ``decodeV1(_:path:)``), then its invariants (``violations(schemaVersion:)``): a report is
    /// verified on every read, so no command builds on one whose counts do not add up.
    /// - Throws: ``ReportLoadError``, naming the file, if it is missing, unreadable, not JSON, of
    ///   another schema version, or does not match the schema; ``ReportInvariantError``, naming the file
    ///   and every violation, if it breaks an invariant.
    public static func load(from path: String) throws -> RunReport {
        guard FileManager.default.fileExists(atPath: path) else { throw ReportLoadError.missing(path: path) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ReportLoadError.unreadable(path: path, reason: String(describing: error))
        }
        return try decode(data, path: path)
    }

    /// Decodes a report from JSON bytes and checks its invariants; `path` only names the source in errors.
    public static func decode(_ data: Data, path: String) throws -> RunReport {
        let (report, version) = try decodeUnchecked(data, path: path)
        let violations = report.violations(schemaVersion: version)
        guard violations.isEmpty else { throw ReportInvariantError(path: path, violations: violations) }
        return report
    }

    /// Decodes a report from JSON bytes without checking its invariants, with the schema version the bytes
    /// declared.
    static func decodeUnchecked(_ data: Data, path: String) throws -> (report: RunReport, schemaVersion: Int) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ReportLoadError.notJSON(path: path, reason: "invalid JSON")
        }
        guard let fields = object as? [String: Any] else {
            throw ReportLoadError.notJSON(path: path, reason: "top level is not an object")
        }
        let version = (fields["schemaVersion"] as? NSNumber).flatMap { Int(exactly: $0.doubleValue) }
        if version == 1 { return (try decodeV1(data, path: path), 1) }
        guard version == currentSchemaVersion else {
            throw ReportLoadError.unknownSchemaVersion(path: path, found: version, supported: currentSchemaVersion)
        }
        do {
            return (try JSONDecoder().decode(RunReport.self, from: data), currentSchemaVersion)
        } catch let error as DecodingError {
            throw ReportLoadError.malformed(path: path, reason: Self.explain(error))
        } catch {
            throw ReportLoadError.malformed(path: path, reason: String(describing: error))
        }
    }

    /// The report as `report.json` bytes: pretty-printed, keys sorted, so reports diff cleanly.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    static func explain(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "bad value at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}
