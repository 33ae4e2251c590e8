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
}

extension ReplaySource {
    public var recordingPasses: Int? { nil }
}
