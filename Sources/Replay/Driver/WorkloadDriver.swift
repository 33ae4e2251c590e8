import APNsCore

/// One good line of a recorded stream, as a workload's rules see it.
public struct StreamRecord {
    /// 1-based line number.
    public let line: Int
    /// Epoch milliseconds.
    public let at: Int64
    public let kind: String
    public let fields: FlatJSONObject

    public init(line: Int, at: Int64, kind: String, fields: FlatJSONObject) {
        self.line = line
        self.at = at
        self.kind = kind
        self.fields = fields
    }
}

/// A workload's rules: how each event changes the workload's state and which pushes it plans. The
/// shared ``WorkloadDriver`` reads the stream, applies the bad-line policy, counts every event and hands
/// the planned pushes to the engine; the rules only decide.
public protocol WorkloadRules: AnyObject {
    /// Applies one event. Returns how many pushes it planned (0: it only changed state); the driver then
    /// takes exactly that many results from ``nextPlanned(into:)``. Throws a `StreamLineError` (or any
    /// error, counted as a bad value) for an event it cannot use; such an event plans nothing.
    func apply(_ record: StreamRecord) throws -> Int

    /// The next push the last event planned: `.push` with `push` filled, or `.notSent(cause)` with
    /// `push.priority` set; nil once the plan is done.
    func nextPlanned(into push: inout OutgoingPush) -> PullResult?

    /// Broadcast delivery: followers of a changed entity that were not subscribed to its channel, so the
    /// broadcast did not reach them (device delivery would have). 0 for a workload that does not broadcast.
    /// No default: a wrapper that forgot to forward it would report 0.
    var followersNotSubscribed: Int { get }

    /// The name the last applied event is counted under (the matched event's); nil: the line's kind.
    var lastEventName: String? { get }

    /// Whether the last applied event has push rules and planned nothing because none of their conditions
    /// held (counted apart from state-only events).
    var lastEventHeldNoRule: Bool { get }

    /// The name of the push rule that planned the push ``nextPlanned(into:)`` last gave; nil when the
    /// workload does not name its rules.
    var lastPushRule: String? { get }

    /// Pushes planned so far by each push rule, by event kind and rule name (``EventTally/pushesByRule``).
    var pushesByRule: [String: [String: Int]] { get }

    /// Whether any push rule has a name (else ``lastPushRule`` is always nil, and is not asked per push).
    var namesPushRules: Bool { get }

    /// Pushes planned so far at a priority of their own (the rule's or the event's), which the profile's
    /// `priority` does not reach.
    var pushesAtOwnPriority: Int { get }
    /// Why the last push ``nextPlanned(into:)`` gave as `.notSent(.badLine)` was not sent, when a value read
    /// for its recipient failed (the event's other pushes went on); nil when the workload has no such pushes.
    var lastPushFailure: String? { get }
    /// Each push rule's event kind and name (as ``pushesByRule`` counts them), by ``lastPushRuleIndex``.
    var pushRuleNames: [(kind: String, rule: String)] { get }

    /// The place in ``pushRuleNames`` of the rule that planned the push ``nextPlanned(into:)`` last gave; -1: none.
    var lastPushRuleIndex: Int { get }
}

extension WorkloadRules {
    public var pushRuleNames: [(kind: String, rule: String)] { [] }
    public var lastPushRuleIndex: Int { -1 }
    public var lastEventName: String? { nil }
    public var lastEventHeldNoRule: Bool { false }
    public var lastPushRule: String? { nil }
    public var namesPushRules: Bool { false }
    public var pushesAtOwnPriority: Int { 0 }
    public var lastPushFailure: String? { nil }
}

/// Drives any workload's rules over a recorded stream, as the engine's `PushSource`.
///
/// Every event read ends in exactly one class of ``events`` (planned pushes, state only, or a bad line),
/// and every push an event planned comes out of ``next(into:)`` exactly once, as `.push` or as
/// `.notSent(cause)`; a bad line comes out as one `.notSent(.bad_line)` (it may have planned a push). So
/// the run's outcomes add up to ``EventTally/expectedPushes``.
///
/// Bad lines follow the profile's policy: `skip` counts them and goes on; `stop` counts the first and
/// ends the stream there (``stopError``). An I/O failure of the file ends it too (``readFailure``).
public final class WorkloadDriver: ReplaySource {
    private let reader: EventStreamReader
    public let rules: WorkloadRules
    private let policy: RunConfig.Workload.BadLinePolicy
    private let priority: Priority
    private var stopping = false
    /// The ``OutgoingPush/kind`` every push of this recording carries (its place in a mix; 0 alone).
    public var kind: Int32 = 0

    /// What became of every event read so far, with the pushes each push rule planned.
    public var events: EventTally {
        var t = tally
        t.pushesByRule = rules.pushesByRule
        t.pushesAtOwnPriority = rules.pushesAtOwnPriority
        for (i, name) in rules.pushRuleNames.enumerated() where i < ruleToSend.count && (ruleToSend[i] > 0 || !ruleNotSent[i].isEmpty) {
            t.ruleOutcomes[name.kind, default: [:]][name.rule] = EventTally.RuleOutcome(toSend: ruleToSend[i], notSent: ruleNotSent[i])
        }
        for (i, n) in kindToSend.enumerated() where n > 0 {
            t.toSendByKind[kind + Int32(i / 3), default: [:]][Self.priorities[i % 3].rawValue] = n
        }
        return t
    }
    /// Per push rule (``WorkloadRules/lastPushRuleIndex``): its pushes handed out, and not sent by cause.
    private var ruleToSend: [Int]
    private var ruleNotSent: [[String: Int]]
    /// Pushes handed out, by push kind less ``kind`` and priority (three a kind, in ``priorities``' order).
    private var kindToSend: [Int] = []
    private static let priorities: [Priority] = [.immediate, .powerAware, .powerFirst]
    private var tally = EventTally()
    /// The bad line that ended the stream under `bad_lines: stop`.
    public private(set) var stopError: StreamLineError?
    /// The I/O error that ended it.
    public private(set) var readFailure: Error?
    /// The recorded time of the stream's first good event, epoch milliseconds; nil until one was read.
    public private(set) var firstRecordedMillis: Int64?
    /// The recorded time of the latest good event read, epoch milliseconds.
    public private(set) var lastRecordedMillis: Int64?
    /// Added to every event's recorded time before the rules see it: a looped recording's later passes.
    public var timeShiftMillis: Int64 = 0

    /// Bytes of the stream read so far and its size when known, for progress; safe from any thread.
    public var streamProgress: (bytes: Int, of: Int?) { reader.progress }

    public var failedRead: (stream: String, error: Error)? { readFailure.map { (reader.path, $0) } }

    public var recordedSpan: (first: Int64, last: Int64)? {
        guard let first = firstRecordedMillis, let last = lastRecordedMillis else { return nil }
        return (first, last)
    }

    public var followersNotSubscribed: Int { rules.followersNotSubscribed }

    /// The line and kind of the event whose plan is being handed out (or of the bad line just counted).
    private var originLine = 0
    private var originKind = ""
    private var originRule: String?
    private let namesRules: Bool
    public var origin: PushOrigin? {
        originLine > 0 ? PushOrigin(line: originLine, kind: originKind, stream: reader.path, rule: originRule) : nil
    }

    /// - Parameter priority: the priority a bad line's not-sent push is counted at (the profile's).
    public init(reader: EventStreamReader, rules: WorkloadRules, badLines: RunConfig.Workload.BadLinePolicy, priority: Priority) {
        self.reader = reader
        self.rules = rules
        namesRules = rules.namesPushRules
        ruleToSend = Array(repeating: 0, count: rules.pushRuleNames.count)
        ruleNotSent = Array(repeating: [:], count: rules.pushRuleNames.count)
        self.policy = badLines
        self.priority = priority
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        while true {
            // A device push unless the rules say broadcast: the reused buffer may hold the last one's.
            push.channel = -1
            push.reach = 1
            push.kind = kind
            if let planned = rules.nextPlanned(into: &push) {
                if namesRules { originRule = rules.lastPushRule }
                if planned == .notSent(.badLine), let why = rules.lastPushFailure { tally.recordFailedPush(line: originLine, detail: why) }
                // After abandon(), what was planned and not handed out ends as not sent.
                let result: PullResult = stopping ? .notSent(.runStopped) : planned
                count(result, push)
                return result
            }
            if stopping { originLine = 0; return .end }
            let event: EventStreamReader.Event?
            do { event = try reader.next() } catch {
                // The file itself failed, not a line: the run cannot go on.
                readFailure = error
                stopping = true
                originLine = 0
                return .end
            }
            switch event {
            case nil:
                originLine = 0
                return .end
            case let .bad(error)?:
                return badLine(error, kind: nil, push: &push)
            case let .record(line, recordedAt, kind, fields)?:
                let at = recordedAt + timeShiftMillis
                if firstRecordedMillis == nil { firstRecordedMillis = at }
                lastRecordedMillis = max(lastRecordedMillis ?? at, at)
                let record = StreamRecord(line: line, at: at, kind: kind, fields: fields)
                originLine = line
                originKind = kind
                do {
                    let planned = try rules.apply(record)
                    if let name = rules.lastEventName { originKind = name }
                    let result: EventResult = planned > 0 ? .producedPushes(planned) : rules.lastEventHeldNoRule ? .noPushCondition : .stateOnly
                    tally.record(kind: rules.lastEventName ?? kind, result)
                } catch {
                    let lineError = error as? StreamLineError
                        ?? StreamLineError(line: line, cause: .badValue(field: "?", why: "\(error)"))
                    return badLine(lineError, kind: rules.lastEventName ?? (kind.isEmpty ? nil : kind), push: &push)
                }
            }
        }
    }

    /// Counts a planned push by its rule and, handed out, by its kind and priority.
    @inline(__always)
    private func count(_ result: PullResult, _ push: OutgoingPush) {
        let rule = ruleToSend.isEmpty ? -1 : rules.lastPushRuleIndex
        switch result {
        case .push:
            if rule >= 0 { ruleToSend[rule] += 1 }
            let slot = Int(push.kind - kind) * 3 + (push.priority == .immediate ? 0 : push.priority == .powerAware ? 1 : 2)
            if slot >= kindToSend.count { kindToSend += Array(repeating: 0, count: slot + 1 - kindToSend.count) }
            kindToSend[slot] += 1
        case let .notSent(cause):
            if rule >= 0 { ruleNotSent[rule][cause.rawValue, default: 0] += 1 }
        case .idle, .end:
            break
        }
    }

    /// The rest of a fan-out in progress ends as not sent; the stream is not read further.
    public func abandon() { stopping = true }

    /// Counts a line that could not be used (an invalid event, and one push not sent: it may have planned
    /// one); under `bad_lines: stop` the stream ends here.
    private func badLine(_ error: StreamLineError, kind: String?, push: inout OutgoingPush) -> PullResult {
        originLine = error.line
        originKind = kind ?? EventTally.unknownKind
        originRule = nil
        tally.recordBadLine(line: error.line, cause: error.cause.key, detail: error.description, kind: kind ?? EventTally.unknownKind)
        if policy == .stop {
            stopError = error
            stopping = true
        }
        push.priority = priority
        push.intendedNanos = 0
        return .notSent(.badLine)
    }
}
