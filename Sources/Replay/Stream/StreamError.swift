/// A failure of the stream as a whole (the file), as opposed to one bad line (`StreamLineError`).
///
/// `lineTooLong` is the exception: `LineReader` throws it for one line and stays usable, so that the
/// caller can report the line and go on; `EventStreamReader` turns it into `.bad(StreamLineError)`.
public enum StreamError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened (missing, unreadable, a directory). `reason` is the errno text.
    case cannotOpen(path: String, reason: String)
    /// `read(2)` failed after the file was opened. `reason` is the errno text. The reader is finished.
    case readFailed(path: String, reason: String)
    /// Line `line` (1-based) is longer than the reader's `maxLineBytes`; it was skipped without
    /// being loaded, and the next call to `next()` continues with the following line.
    case lineTooLong(line: Int)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "cannot open '\(path)': \(reason)"
        case let .readFailed(path, reason): return "cannot read '\(path)': \(reason)"
        case let .lineTooLong(line): return "line \(line): line too long"
        }
    }
}
