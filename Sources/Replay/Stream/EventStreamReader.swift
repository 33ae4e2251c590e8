/// Reads a recorded event stream (NDJSON: one JSON object a line, ordered by time) one event at
/// a time, in constant memory.
///
/// Each call to `next()` returns either a record or a bad line; a bad line never stops the reader,
/// so the caller (the run policy) decides whether to skip it or stop. The `shape` says which
/// fields a record needs; by default (`RecordShape.standard`):
/// - `at`: a string field with an RFC 3339 timestamp (`Timestamp`), converted to epoch milliseconds;
/// - `kind`: a non-empty string field. Whether the kind is known is the workload's business.
/// Another shape names another time field, writes it as epoch seconds (a JSON integer or number)
/// or epoch milliseconds (a JSON integer), and may have no kind field (every kind is then "").
/// Errors name the shape's fields: `missing field 'ts'`, `field 'ts' is not epoch seconds: …`.
///
/// Order: a line whose time is earlier than the latest time seen so far minus
/// `backwardsToleranceMillis` is `.bad(timeBackwards(byMillis:))`, where `byMillis` is how far it
/// lies behind the latest. Bad lines never move the "latest" mark.
///
/// Checks run in this order and the first failure is reported: line length, JSON syntax, time
/// (missing, wrong type, bad value), kind (missing, wrong type, empty), order.
///
/// Not thread-safe: one reader belongs to one task.
public final class EventStreamReader {
    /// One step of the stream.
    public enum Event: Sendable {
        /// A well-formed line. `line` is 1-based, `at` is the time field's value in epoch
        /// milliseconds (UTC), `kind` the kind field's ("" when the shape has none), `fields` holds
        /// every top-level field of the line (time and kind included).
        case record(line: Int, at: Int64, kind: String, fields: FlatJSONObject)
        /// A line that cannot be used, and why. Reading continues with the next line.
        case bad(StreamLineError)

        /// The event's line number (1-based).
        public var line: Int {
            switch self {
            case let .record(line, _, _, _): return line
            case let .bad(error): return error.line
            }
        }
    }

    /// The path given to `init`.
    public var path: String { reader.path }
    /// Which fields give a record's time and kind.
    public let shape: RecordShape
    /// How far (milliseconds, ≥ 0) a line's time may lie before the latest time seen without being
    /// reported as `timeBackwards`.
    public let backwardsToleranceMillis: Int64
    /// Physical lines consumed so far, blank lines included (the number of the last line read).
    public var linesRead: Int { reader.lineNumber }
    /// Bytes of the stream consumed and the file's size (nil when not a regular file); safe from any thread.
    public var progress: (bytes: Int, of: Int?) { (reader.bytesConsumed, reader.fileSize) }
    /// Records returned so far.
    public private(set) var recordsRead = 0
    /// Bad lines returned so far.
    public private(set) var badLinesRead = 0
    /// The latest time of any record so far (epoch milliseconds), nil before the first record.
    public private(set) var latestMillis: Int64?

    private let reader: LineReader

    /// Opens the stream at `path`.
    /// - Parameters:
    ///   - path: An NDJSON file.
    ///   - backwardsToleranceMillis: Allowed out-of-order slack, milliseconds (default 0: time must
    ///     never decrease; equal timestamps are fine).
    ///   - chunkSize: Bytes per read (default 64 KiB), see `LineReader`.
    ///   - maxLineBytes: The longest line accepted, bytes (default 1 MiB), see `LineReader`.
    ///   - shape: The time and kind fields (default `.standard`: `at` in RFC 3339, `kind`).
    /// - Throws: `StreamError.cannotOpen(path:reason:)`.
    public init(
        path: String,
        backwardsToleranceMillis: Int64 = 0,
        chunkSize: Int = 1 << 16,
        maxLineBytes: Int = 1 << 20,
        shape: RecordShape = .standard
    ) throws {
        precondition(backwardsToleranceMillis >= 0, "EventStreamReader: backwardsToleranceMillis must be ≥ 0")
        self.backwardsToleranceMillis = backwardsToleranceMillis
        self.shape = shape
        self.reader = try LineReader(checkedPath: path, chunkSize: chunkSize, maxLineBytes: maxLineBytes)
    }

    /// The next record or bad line, or nil at the end of the stream.
    /// - Throws: `StreamError.readFailed(path:reason:)` only (the file itself failed); every
    ///   problem with a line is returned as `.bad`.
    public func next() throws -> Event? {
        try nextEvent()
    }

    /// `next()` with a typed error.
    func nextEvent() throws(StreamError) -> Event? {
        let event: Event
        do throws(StreamError) {
            guard let line = try reader.nextLine() else { return nil }
            event = Self.check(line, latest: latestMillis, tolerance: backwardsToleranceMillis, shape: shape)
        } catch {
            guard case let .lineTooLong(number) = error else { throw error }
            event = .bad(StreamLineError(line: number, cause: .lineTooLong))
        }
        switch event {
        case let .record(_, at, _, _):
            recordsRead += 1
            if latestMillis.map({ at > $0 }) ?? true { latestMillis = at }
        case .bad:
            badLinesRead += 1
        }
        return event
    }

    /// Parses and checks one line against the latest time seen.
    static func check(_ line: LineReader.Line, latest: Int64?, tolerance: Int64, shape: RecordShape = .standard) -> Event {
        let fields: FlatJSONObject
        let at: Int64
        let kind: String
        do throws(StreamLineError) {
            fields = try FlatJSON.parseLine(line.bytes, line: line.number)
            // RFC 3339 without escapes (the usual case) is parsed here, straight from the line's bytes.
            if shape.timeFormat == .iso8601,
               let parsed = fields.withRawString(shape.timeField, { raw in raw.flatMap { Timestamp.parse(utf8: $0) } }) {
                at = parsed
            } else {
                at = try time(of: fields, shape: shape)
            }
            kind = try self.kind(of: fields, shape: shape)
        } catch {
            return .bad(error)
        }

        if let latest {
            let (floor, overflow) = latest.subtractingReportingOverflow(tolerance)
            if !overflow && at < floor {
                return .bad(fields.error(.timeBackwards(byMillis: latest - at)))
            }
        }
        return .record(line: line.number, at: at, kind: kind, fields: fields)
    }

    /// The record's time, epoch milliseconds.
    static func time(of fields: FlatJSONObject, shape: RecordShape) throws(StreamLineError) -> Int64 {
        let name = shape.timeField
        switch shape.timeFormat {
        case .iso8601:
            if let at = fields.withRawString(name, { raw in raw.flatMap { Timestamp.parse(utf8: $0) } }) {
                return at
            }
            let text = try fields.typedString(name)
            guard let value = Timestamp.parse(text) else {
                throw fields.error(.badTimestamp(field: name, value: text))
            }
            return value
        case .unixSeconds:
            let field = try fields.required(name)
            let millis: Int64?
            switch field.type {
            case .integer where !field.overflow:
                millis = EpochTime.millis(fromSeconds: field.intValue)
            case .integer, .number:
                millis = fields.withRawValue(field) { EpochTime.millis(fromSeconds: $0) }
            default:
                throw fields.wrongType(name, expected: .number, found: field.type)
            }
            guard let millis else {
                throw fields.error(.badEpochTime(field: name, unit: "seconds", value: fields.rawText(field)))
            }
            return millis
        case .unixMillis:
            let field = try fields.required(name)
            guard field.type == .integer else { throw fields.wrongType(name, expected: .integer, found: field.type) }
            guard !field.overflow, EpochTime.millisRange.contains(field.intValue) else {
                throw fields.error(.badEpochTime(field: name, unit: "milliseconds", value: fields.rawText(field)))
            }
            return field.intValue
        }
    }

    /// The record's kind: the kind field's non-empty string, or "" when the shape has no kind field.
    static func kind(of fields: FlatJSONObject, shape: RecordShape) throws(StreamLineError) -> String {
        guard let name = shape.kindField else { return "" }
        let kind = try fields.typedString(name)
        guard !kind.isEmpty else { throw fields.error(.badValue(field: name, why: "empty")) }
        return kind
    }
}
