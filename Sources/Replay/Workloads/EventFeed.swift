import APNsCore

/// The events of a recorded stream as a workload consumes them, with the bad-line policy applied in
/// one place: a bad line is counted (as an invalid event and as one push not sent, `bad_line`) and
/// skipped, or under `bad_lines: stop` ends the feed; an I/O failure of the file ends it too.
final class EventFeed {
    /// One good line.
    struct Record {
        let line: Int
        /// Epoch milliseconds.
        let at: Int64
        let kind: String
        let fields: FlatJSONObject
    }

    private let reader: EventStreamReader
    private let policy: RunProfile.BadLinePolicy
    private let accounting: EventAccounting
    private let outcomes: OutcomeSink
    private let priority: Priority
    /// The bad line that stopped the feed under `bad_lines: stop`.
    private(set) var stopError: StreamLineError?
    /// The I/O error that stopped it.
    private(set) var readFailure: Error?

    init(reader: EventStreamReader, policy: RunProfile.BadLinePolicy, accounting: EventAccounting,
         outcomes: OutcomeSink, priority: Priority) {
        self.reader = reader
        self.policy = policy
        self.accounting = accounting
        self.outcomes = outcomes
        self.priority = priority
    }

    /// The next good line, bad ones counted on the way; nil at the end of the stream or when the run must stop.
    func next() -> Record? {
        while stopError == nil, readFailure == nil {
            let event: EventStreamReader.Event?
            do { event = try reader.next() } catch {
                // The file itself failed, not a line: the run cannot go on.
                readFailure = error
                return nil
            }
            switch event {
            case nil: return nil
            case let .bad(error)?: if !reject(error, kind: nil) { return nil }
            case let .record(line, at, kind, fields)?: return Record(line: line, at: at, kind: kind, fields: fields)
            }
        }
        return nil
    }

    /// Counts a line the workload could not apply; returns false when the run must stop there.
    func reject(_ error: Error, record: Record) -> Bool {
        let lineError = error as? StreamLineError
            ?? StreamLineError(line: record.line, cause: .badValue(field: "?", why: "\(error)"))
        return reject(lineError, kind: record.kind)
    }

    private func reject(_ error: StreamLineError, kind: String?) -> Bool {
        accounting.badLine(error, kind: kind)
        outcomes.record(.notSent(.badLine), priority: priority, intended: 0, sent: 0, completed: 0)
        if policy == .stop {
            stopError = error
            return false
        }
        return true
    }
}
