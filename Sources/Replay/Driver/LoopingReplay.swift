import APNsCore

/// A recording replayed pass after pass, for an open-loop run longer than the recording lasts at its rate.
///
/// Each pass is the workload built anew over the same stream, so it plans the same pushes to the same
/// tokens with the same payloads, and none of its rules refuses an entity it saw in the pass before. Its
/// recorded times are shifted past the pass before (by the recording's span plus one second), so recorded
/// time, the Live Activity budget and per-activity timestamps keep rising. What the target taught the run
/// (tokens answered 410) stays: the engine keeps it, not the workload.
///
/// A pass that planned no push ends the replay (another would plan none either), as do a stop, a bad line
/// under `bad_lines: stop` and a read failure. Every event of every pass is counted in ``events``, so the
/// run's outcomes still add up to ``EventTally/expectedPushes``.
public final class LoopingReplay: ReplaySource {
    /// Builds pass `n` (1-based from the second) with its recorded times shifted by `shiftMillis`.
    public typealias MakePass = (_ shiftMillis: Int64) throws -> ReplaySource

    private var current: ReplaySource
    private let makePass: MakePass
    /// The events of the passes that ended.
    private var finished = EventTally()
    /// The followers not subscribed, over the passes that ended.
    private var finishedFollowersNotSubscribed = 0
    private var stopping = false
    private var pushesThisPass = 0
    /// The first pass's recorded span, once it ended.
    private var spanMillis: Int64?
    /// Passes started so far (1 until the recording first runs out).
    public private(set) var passes = 1
    /// Why a further pass could not be built, if it could not.
    public private(set) var passFailure: Error?

    public init(first: ReplaySource, makePass: @escaping MakePass) {
        current = first
        self.makePass = makePass
    }

    public var events: EventTally { finished + current.events }
    public var stopError: StreamLineError? { current.stopError }
    public var failedRead: (stream: String, error: Error)? { current.failedRead }
    public var streamProgress: (bytes: Int, of: Int?) { current.streamProgress }
    public var recordedSpan: (first: Int64, last: Int64)? { current.recordedSpan }
    public var recordingPasses: Int? { passes }
    public var origin: PushOrigin? { current.origin }
    public var followersNotSubscribed: Int { finishedFollowersNotSubscribed + current.followersNotSubscribed }

    public func next(into push: inout OutgoingPush) -> PullResult {
        while true {
            let result = current.next(into: &push)
            switch result {
            case .push:
                pushesThisPass += 1
                return result
            case .notSent, .idle:
                return result
            case .end:
                guard !stopping, current.stopError == nil, current.failedRead == nil, pushesThisPass > 0 else { return .end }
                if spanMillis == nil, let span = current.recordedSpan { spanMillis = span.last - span.first + 1000 }
                guard let span = spanMillis else { return .end }
                let next: ReplaySource
                do { next = try makePass(Int64(passes) * span) } catch {
                    passFailure = error
                    return .end
                }
                finished = finished + current.events
                finishedFollowersNotSubscribed += current.followersNotSubscribed
                current = next
                passes += 1
                pushesThisPass = 0
            }
        }
    }

    public func abandon() {
        stopping = true
        current.abandon()
    }
}
