/// Reads a recorded event stream (NDJSON: one JSON object a line, ordered by `at`) one event at
/// a time, in constant memory.
///
/// Each call to `next()` returns either a record or a bad line; a bad line never stops the reader,
/// so the caller (the run policy) decides whether to skip it or stop. A record has:
/// - `at`: a string field with an RFC 3339 timestamp (`Timestamp`), converted to epoch milliseconds;
/// - `kind`: a non-empty string field. Whether the kind is known is the workload's business.
///
/// Order: a line whose `at` is earlier than the latest `at` seen so far minus
/// `backwardsToleranceMillis` is `.bad(timeBackwards(byMillis:))`, where `byMillis` is how far it
/// lies behind the latest. Bad lines never move the "latest" mark.
///
/// Checks run in this order and the first failure is reported: line length, JSON syntax, `at`
/// (missing, wrong type, bad timestamp), `kind` (missing, wrong type, empty), order.
///
/// Not thread-safe: one reader belongs to one task.
public final class EventStreamReader {
    /// One step of the stream.
    public enum Event: Sendable {
        /// A well-formed line. `line` is 1-based, `at` is epoch milliseconds (UTC), `fields` holds
        /// every top-level field of the line (`at` and `kind` included).
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
    /// How far (milliseconds, ≥ 0) a line's `at` may lie before the latest `at` seen without being
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
    /// The latest `at` of any record so far (epoch milliseconds), nil before the first record.
    public private(set) var latestMillis: Int64?

    private let reader: LineReader

    /// Opens the stream at `path`.
    /// - Parameters:
    ///   - path: An NDJSON file.
    ///   - backwardsToleranceMillis: Allowed out-of-order slack, milliseconds (default 0: `at` must
    ///     never decrease; equal timestamps are fine).
    ///   - chunkSize: Bytes per read (default 64 KiB), see `LineReader`.
    ///   - maxLineBytes: The longest line accepted, bytes (default 1 MiB), see `LineReader`.
    /// - Throws: `StreamError.cannotOpen(path:reason:)`.
    public init(
        path: String,
        backwardsToleranceMillis: Int64 = 0,
        chunkSize: Int = 1 << 16,
        maxLineBytes: Int = 1 << 20
    ) throws {
        precondition(backwardsToleranceMillis >= 0, "EventStreamReader: backwardsToleranceMillis must be ≥ 0")
        self.backwardsToleranceMillis = backwardsToleranceMillis
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
            event = Self.check(line, latest: latestMillis, tolerance: backwardsToleranceMillis)
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

    /// Parses and checks one line against the latest `at` seen.
    static func check(_ line: LineReader.Line, latest: Int64?, tolerance: Int64) -> Event {
        let fields: FlatJSONObject
        do throws(StreamLineError) {
            fields = try FlatJSON.parseLine(line.bytes, line: line.number)
        } catch {
            return .bad(error)
        }

        // `at`: parsed straight from the line's bytes when it has no escapes (the usual case).
        let parsed: Int64? = fields.withRawString("at") { raw in raw.flatMap { Timestamp.parse(utf8: $0) } }
        let at: Int64
        if let parsed {
            at = parsed
        } else {
            do throws(StreamLineError) {
                let text = try fields.typedString("at")
                guard let value = Timestamp.parse(text) else {
                    return .bad(fields.error(.badTimestamp(field: "at", value: text)))
                }
                at = value
            } catch {
                return .bad(error)
            }
        }

        let kind: String
        do throws(StreamLineError) {
            kind = try fields.typedString("kind")
        } catch {
            return .bad(error)
        }
        guard !kind.isEmpty else { return .bad(fields.error(.badValue(field: "kind", why: "empty"))) }

        if let latest {
            let (floor, overflow) = latest.subtractingReportingOverflow(tolerance)
            if !overflow && at < floor {
                return .bad(fields.error(.timeBackwards(byMillis: latest - at)))
            }
        }
        return .record(line: line.number, at: at, kind: kind, fields: fields)
    }
}
