import APNsCore
import Foundation

extension RecordingSurvey {
    /// Reads the recording at `path`: its form and time field from its first lines, then every line into its
    /// event. A line that is not a JSON object, or lacks what its form needs, is an error naming it.
    public static func read(path: String) throws -> RecordingSurvey {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProfileError(file: path, line: nil, message: "cannot read the recording")
        }
        var objects: [(Int, FlatJSONObject)] = []
        for (i, raw) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let bytes = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            do { objects.append((i + 1, try FlatJSON.parse(ArraySlice(bytes), line: i + 1))) } catch {
                throw ProfileError(file: path, line: i + 1, message: "\(error)")
            }
        }
        guard let first = objects.first?.1 else { throw ProfileError(file: path, line: nil, message: "the recording has no line") }
        let form = try Self.form(first, objects.map { $0.1 }, path: path)
        let (timeField, timeFormat) = try Self.time(first, path: path, line: objects[0].0)
        var survey = RecordingSurvey(path: path, form: form, timeField: timeField, timeFormat: timeFormat, events: [], lines: objects.count)
        if form == .api { survey.slugs = Self.slugRoutes(objects.map { $0.1 }) }
        var byMatch: [String: Int] = [:]
        for (line, object) in objects { try survey.add(object, line: line, byMatch: &byMatch) }
        survey.sortForMatching()
        return survey
    }

    /// API calls when the first line has a string `method` and `path`; else the first kind-like field every
    /// line has as a string.
    static func form(_ first: FlatJSONObject, _ all: [FlatJSONObject], path: String) throws -> Form {
        if first.valueType("method") == .string, first.valueType("path") == .string { return .api }
        for key in kindCandidates + first.keys where first.valueType(key) == .string && !timeCandidates.contains(key) {
            if all.allSatisfy({ $0.valueType(key) == .string }) { return .kind(key) }
        }
        throw ProfileError(file: path, line: nil, message: "no line form fits: neither API calls (method and path) "
            + "nor events named by a field every line has as a string (\(kindCandidates.joined(separator: ", ")))")
    }

    /// The first line's time field and its format: ISO 8601 text, or whole seconds or milliseconds since 1970.
    static func time(_ first: FlatJSONObject, path: String, line: Int) throws -> (String, RecordShape.TimeFormat) {
        for key in timeCandidates {
            switch first.valueType(key) {
            case .string?:
                if let text = try first.optionalString(key), Timestamp.parse(text) != nil { return (key, .iso8601) }
            case .integer?:
                let n = try first.optionalInt(key) ?? 0
                return (key, n > 100_000_000_000 ? .unixMillis : .unixSeconds)
            case .number?:
                return (key, .unixSeconds)
            default:
                continue
            }
        }
        throw ProfileError(file: path, line: line, message: "no time field (\(timeCandidates.joined(separator: ", "))) with an ISO 8601 text or a number")
    }

    /// Orders the events so that each line goes to the event it was grouped in: fewer captures first (a
    /// literal segment before a capture in its place).
    mutating func sortForMatching() {
        events.sort { ($0.captures.count, $0.firstLine) < ($1.captures.count, $1.firstLine) }
    }
}
