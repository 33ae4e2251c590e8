import APNsCore

/// A recording (or a mix of recordings) as the run's push source, with what the report needs of it once
/// the run ends: every event's class, the workload's own counts, and why the stream ended early if it did.
public protocol ReplaySource: PushSource {
    /// What became of every event read so far.
    var events: EventTally { get }
    /// The bad line that ended the stream under `bad_lines: stop`.
    var stopError: StreamLineError? { get }
    /// The I/O error that ended it, with the stream it came from.
    var failedRead: (stream: String, error: Error)? { get }
    /// Bytes of the stream(s) read so far and their size when known, for progress; safe from any thread.
    var streamProgress: (bytes: Int, of: Int?) { get }
    /// The recorded times of the first and the latest good event read so far, epoch milliseconds.
    var recordedSpan: (first: Int64, last: Int64)? { get }
    /// Passes over the recording when the source loops it (``LoopingReplay``); nil when it does not.
    var recordingPasses: Int? { get }
    /// Broadcast delivery: followers of a changed entity not subscribed to its channel, summed over every
    /// broadcast so far (``WorkloadRules/followersNotSubscribed``); 0 for device delivery.
    var followersNotSubscribed: Int { get }
    /// Which event the push (or not-sent push) the latest ``next(into:)`` returned came from; nil before
    /// the first push and once the source ended. Read it right after `next(into:)`: the next call moves it.
    var origin: PushOrigin? { get }
}

/// The event of a recorded stream that planned a push: where it is and what it was.
public struct PushOrigin: Equatable, Sendable {
    /// 1-based line number in the stream.
    public var line: Int
    /// The event's `kind` (e.g. `leave.status`); ``EventTally/unknownKind`` for a bad line whose kind could not be read.
    public var kind: String
    /// The stream's path, as the profile gave it.
    public var stream: String
    /// The name of the push rule that planned it, when its workload names its rules (a recipe's event with
    /// several rules, or a named one); nil for a bad line.
    public var rule: String?

    public init(line: Int, kind: String, stream: String, rule: String? = nil) {
        self.line = line
        self.kind = kind
        self.stream = stream
        self.rule = rule
    }
}

extension ReplaySource {
    public var recordingPasses: Int? { nil }
}
