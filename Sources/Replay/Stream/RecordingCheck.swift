import Foundation

/// What a run asks of a recording before anything is sent: that it holds at least one event. A recording
/// with no line, or whose every line is bad, would replay nothing and say so only in an empty report; it is
/// refused instead, naming the file. One good line is enough: the bad ones are then counted as a run counts them.
public enum RecordingCheck {
    /// Reads `path` up to its first good line (usually its first line). Throws a ``ProfileError`` naming the
    /// file when it has none, with the profile that names it and, when every line is bad, the first reason.
    public static func requireEvent(stream path: String, shape: RecordShape, profile: String) throws {
        let reader = try EventStreamReader(path: path, shape: shape)
        var firstBad: StreamLineError?
        while let event = try reader.next() {
            switch event {
            case .record: return
            case .bad(let e): if firstBad == nil { firstBad = e }
            }
        }
        guard let firstBad else {
            throw ProfileError(file: path, line: nil, message: "the recording has no line: nothing to replay (the stream of \(profile))")
        }
        let count = reader.badLinesRead
        throw ProfileError(file: path, line: nil, message: "no line of the recording is an event: \(count == 1 ? "its one line is" : "all \(count) lines are") "
            + "bad (first: \(firstBad)): nothing to replay (the stream of \(profile))")
    }
}
