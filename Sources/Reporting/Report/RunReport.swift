import APNsCore
import Histogram

/// The stable, versioned `report.json` of one run: the input of `compare` and `merge`.
///
/// JSON keys are the property names below (camelCase); the writer sorts keys and pretty-prints,
/// so two reports of the same run diff cleanly. Every latency value is in microseconds (`unit: "us"`),
/// every duration field says its unit in its name (`durationSeconds`, `pushTimeoutMillis`).
///
/// ```json
/// { "schemaVersion": 2,
///   "generator": { "name": "apnsbench", "version": "0.9.0" },
///   "startedAt": "2025-04-16T10:00:00Z", "durationSeconds": 12.5,
///   "configuration": { … RunConfig, as the run used it … }, "environment": { … EnvironmentInfo … },
///   "events":  { "read": 10, "byKind": {"leave.status": 10}, "producedPushes": 8, "stateOnly": 1,
///                "invalid": {"bad_json": 1}, "badLineSamples": [{"line": 7, "cause": "bad_json", "detail": "…"}] },
///   "pushes":  { "planned": 8, "delivered": 6, "rejected": {"BadDeviceToken": {"status": 400, "count": 1}},
///                "failed": {}, "timedOut": 0, "notSent": {"no_token": 1}, "balanced": true },
///   "latency": { "serviceTime": {…}, "responseTime": {…}, "byPriority": {"10": {…}}, "byPushType": {"alert": {…}},
///                "byOutcome": {"delivered": {…}, "rejected": {…}}, "undeliveredSent": 1,
///                "histograms": { "encoding": "hdrhistogram-v2-compressed-base64", "unit": "us",
///                                "overall": {"serviceTime": "HISTFAAAA…", "responseTime": "HISTFAAAA…"},
///                                "byPriority": {…}, "byPushType": {…}, "byOutcome": {…} } },
///   "throughput": { "pushesPerSecond": 480.0, "sent": 7, "completed": 7 },
///   "timeline": [{ "second": 0, "sent": 7, "completed": 7, "delivered": 6, "errors": 1, "rejected": 1, "failed": 0,
///                  "timedOut": 0, "inFlight": 0, "responseTime": "HISTFAAAA…" }],
///   "engine": { "sent": 7, "connectionsOpened": 1, "providerTokenSignings": 1, "peakInFlight": 7, "retries": {}, … },
///   "simulator": { "accepted": 6 } }
/// ```
///
/// Change the meaning or name of a field only together with ``currentSchemaVersion``; adding an
/// optional field keeps the version. Schema 2 embeds the run configuration (``RunConfig``) and the
/// engine's counters (``EngineCounters``) as they are; schema 1 had flattened copies of both.
public struct RunReport: Codable, Sendable, Equatable {
    /// The schema version this build writes and reads.
    public static let currentSchemaVersion = 2

    /// The schema version of this report; ``load(from:)`` refuses any other than ``currentSchemaVersion``.
    public var schemaVersion: Int
    /// The tool that wrote the report.
    public var generator: Generator
    /// Wall-clock start of the run, ISO-8601 in UTC (`2025-04-16T10:00:00Z`).
    public var startedAt: String
    /// Wall-clock length of the run, in seconds.
    public var durationSeconds: Double
    /// The run's configuration, verbatim: the profile with the command line's flags laid over it.
    public var configuration: RunConfig
    /// Where the run ran: library versions and machine.
    public var environment: EnvironmentInfo
    /// What happened to every event read from the recorded stream.
    public var events: Events
    /// What happened to every planned push.
    public var pushes: Pushes
    /// Latency of delivered pushes, in microseconds.
    public var latency: Latency
    /// Completed pushes per second and the totals behind it.
    public var throughput: Throughput
    /// Per interval since the run's start (`configuration.timelineIntervalSeconds`, 1 s by default):
    /// sends, completions, deliveries, errors, in flight, connection events.
    public var timeline: [TimelineEntry]
    /// The engine's counters (connections, provider tokens, retries, holds), summed over its workers.
    public var engine: EngineCounters
    /// The simulator's own counters, when the run's target was the embedded simulator; absent otherwise.
    public var simulator: [String: Int]?
    /// What coalescing saved and cost, when it was on; absent otherwise.
    public var coalescing: Coalescing?
    /// Why the run stopped before its stream ended, when something stopped it: `SIGINT`, or
    /// `cannot reach HOST port N: CAUSE ...` (fail fast); absent when it ran to its end or its duration.
    public var stopReason: String?
    /// The process's open file descriptors before the run started and after everything it opened
    /// (connections, simulator, engine) was torn down: equal unless something leaked. Absent in reports
    /// written before it was recorded.
    public var openDescriptors: OpenDescriptors?
    /// The Live Activity budget in recorded time (`liveActivityBudget`), for Live Activity runs with a
    /// budget: what iOS would throttle of the priority-10 updates sent. Absent otherwise.
    public var liveActivityBudget: LiveActivityBudgetCount?
    /// The run's id (`--run-id`, `APNSBENCH_RUN_ID`, or made fresh): the same in every shard of one run,
    /// which `merge` requires. Absent in reports written before it existed.
    public var runID: String?
    /// Broadcast delivery's channels and what they cost; absent for device delivery.
    public var broadcast: Broadcast?
    /// The shards a merged report was made of (`apnsbench merge`); absent for a single process's run.
    public var merged: Merged?
    /// The device side of delivery, when the run modelled it (``DeviceDelivery``); nil otherwise.
    public var device: DeviceDelivery?
    /// What the priority override reached, when one was set (``PriorityOverrideCount``).
    public var priorityOverride: PriorityOverrideCount?
    /// A sender's requests as `apnsbench simulate --report` received them (``Received``); absent in a run's report.
    public var received: Received?
    /// The run's push kinds that pushes were handed out for: push type, topic, expiration and collapse id, with
    /// the pushes by priority. Absent in reports written before it existed, and for a merge of shards.
    public var pushKinds: [PushKind]?
    /// What the sender controlled: its pushes by class and the headers it set (``Sends``); absent in reports
    /// written before it existed.
    public var sends: Sends?

    /// A report built whole: every field is a parameter, none has a default (but the schema version this build
    /// writes), so a caller names each section, nil where the run has none, and a new field is added here too.
    public init(
        schemaVersion: Int = RunReport.currentSchemaVersion,
        generator: Generator,
        startedAt: String,
        durationSeconds: Double,
        configuration: RunConfig,
        environment: EnvironmentInfo,
        events: Events,
        pushes: Pushes,
        latency: Latency,
        throughput: Throughput,
        timeline: [TimelineEntry],
        engine: EngineCounters,
        simulator: [String: Int]?,
        coalescing: Coalescing?,
        stopReason: String?,
        openDescriptors: OpenDescriptors?,
        liveActivityBudget: LiveActivityBudgetCount?,
        runID: String?,
        broadcast: Broadcast?,
        merged: Merged?,
        device: DeviceDelivery?,
        priorityOverride: PriorityOverrideCount?,
        received: Received?,
        pushKinds: [PushKind]?,
        sends: Sends?
    ) {
        self.schemaVersion = schemaVersion
        self.generator = generator
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.configuration = configuration
        self.environment = environment
        self.events = events
        self.pushes = pushes
        self.latency = latency
        self.throughput = throughput
        self.timeline = timeline
        self.engine = engine
        self.simulator = simulator
        self.coalescing = coalescing
        self.stopReason = stopReason
        self.openDescriptors = openDescriptors
        self.liveActivityBudget = liveActivityBudget
        self.runID = runID
        self.broadcast = broadcast
        self.merged = merged
        self.device = device
        self.priorityOverride = priorityOverride
        self.received = received
        self.pushKinds = pushKinds
        self.sends = sends
    }
}

extension RunReport {
    /// A broadcast run's channels: one per store its recording subscribes activities to.
    public struct Broadcast: Codable, Sendable, Equatable {
        /// Channels created (one per store with subscribers, up to the app's channel limit).
        public var channels: Int
        /// Stores whose channel the API refused for the channel limit (their updates: not sent `channel_limit`).
        public var storesRefused: Int
        /// Channels deleted at the run's end.
        public var deleted: Int
        /// `keep_channels`: the channels were left in place.
        public var kept: Bool
        /// Channel-management calls by operation and answer (`create 201`, `delete 204`, …).
        public var managementCalls: [String: Int]
        /// Followers of a changed store that were not subscribed to its channel, summed over the order
        /// changes broadcast: device delivery would have reached them, the broadcast did not.
        public var followersNotSubscribed: Int

        public init(channels: Int, storesRefused: Int, deleted: Int, kept: Bool, managementCalls: [String: Int], followersNotSubscribed: Int) {
            self.channels = channels
            self.storesRefused = storesRefused
            self.deleted = deleted
            self.kept = kept
            self.managementCalls = managementCalls
            self.followersNotSubscribed = followersNotSubscribed
        }

        /// Channel-management calls in all.
        public var managementCallCount: Int { managementCalls.values.reduce(0, +) }
    }

    /// Where a merged report came from.
    public struct Merged: Codable, Sendable, Equatable {
        /// Shards merged (all of the run's).
        public var shards: Int
        /// Each shard's start, length and report folder, by index.
        public var parts: [Part]

        public struct Part: Codable, Sendable, Equatable {
            public var index: Int
            public var startedAt: String
            public var durationSeconds: Double
            /// The folder its report.json was read from, as given to `merge`.
            public var source: String
            /// The machine it ran on (`environment.hostname`, when the report has it).
            public var host: String?
            public init(index: Int, startedAt: String, durationSeconds: Double, source: String, host: String?) {
                self.index = index
                self.startedAt = startedAt
                self.durationSeconds = durationSeconds
                self.source = source
                self.host = host
            }
        }

        public init(shards: Int, parts: [Part]) {
            self.shards = shards
            self.parts = parts
        }
    }

    /// What the device would throttle: priority-10 Live Activity updates beyond `priority10PerHour` for
    /// one activity token within a rolling hour of recorded time. The same at any replay speed.
    public struct LiveActivityBudgetCount: Codable, Sendable, Equatable {
        /// The budget assumed (Apple does not publish it).
        public var priority10PerHour: Int
        public var windowSeconds: Int
        /// Priority-10 updates sent (counted as they went to the engine).
        public var priority10Updates: Int
        /// Of those, the updates the device would throttle.
        public var throttled: Int
        /// Activity tokens with at least one throttled update.
        public var activitiesThrottled: Int

        public init(priority10PerHour: Int, windowSeconds: Int, priority10Updates: Int, throttled: Int, activitiesThrottled: Int) {
            self.priority10PerHour = priority10PerHour
            self.windowSeconds = windowSeconds
            self.priority10Updates = priority10Updates
            self.throttled = throttled
            self.activitiesThrottled = activitiesThrottled
        }
    }

    /// Open file descriptors around a run (`/proc/self/fd`).
    public struct OpenDescriptors: Codable, Sendable, Equatable {
        public var atStart: Int
        public var atEnd: Int
        public init(atStart: Int, atEnd: Int) {
            self.atStart = atStart
            self.atEnd = atEnd
        }
        /// Descriptors the run left open.
        public var leaked: Int { atEnd - atStart }
    }

    /// The batching knob's effect: Live Activity updates collapsed into a later one for the same token.
    public struct Coalescing: Codable, Sendable, Equatable {
        /// The window, recorded milliseconds.
        public var windowMillis: Int
        /// Updates superseded by a newer one (pushes saved; counted as not sent `coalesced`).
        public var pushesSaved: Int
        /// How long each update waited, from its recorded time until a push carrying it (or newer state)
        /// was released, in milliseconds of recorded time.
        public var staleness: LatencySummary

        public init(windowMillis: Int, pushesSaved: Int, staleness: LatencySummary) {
            self.windowMillis = windowMillis
            self.pushesSaved = pushesSaved
            self.staleness = staleness
        }
    }
}

extension RunReport {
    /// The tool and version that wrote a report.
    public struct Generator: Codable, Sendable, Equatable {
        /// The version written when the caller gives none: this build's (``ApnsbenchVersion``).
        public static let defaultVersion = ApnsbenchVersion.text

        /// Always `apnsbench` for reports this package writes.
        public var name: String
        /// The generator's version, e.g. `0.9.0`.
        public var version: String

        public init(name: String = "apnsbench", version: String = Generator.defaultVersion) {
            self.name = name
            self.version = version
        }
    }

    /// Every event read ends in exactly one class: `read == producedPushes + stateOnly + noPushCondition + sum(invalid)`.
    public struct Events: Codable, Sendable, Equatable {
        /// The report's view of a run's ``EventTally``.
        public init(_ t: EventTally) {
            self.init(read: t.read, byKind: t.byKind, producedPushes: t.producedPushes, stateOnly: t.stateOnly,
                      invalid: t.invalid, badLineSamples: t.badLineSamples)
            expectedPushes = t.expectedPushes
            noPushCondition = t.noPushCondition > 0 ? t.noPushCondition : nil
            pushesByRule = t.pushesByRule.isEmpty ? nil : t.pushesByRule
            pushesAtOwnPriority = t.pushesAtOwnPriority > 0 ? t.pushesAtOwnPriority : nil
            pushRules = PushRule.all(t)
        }

        /// Events (lines) read from the stream, including bad lines.
        public var read: Int
        /// Events by their `kind`; lines whose kind could not be read count under `"?"`.
        public var byKind: [String: Int]
        /// Events that produced at least one planned push.
        public var producedPushes: Int
        /// Events that only changed state (a registration, a token update) and produced no push.
        public var stateOnly: Int
        /// Events with push rules none of whose conditions held: no push, and not a bad line. Absent when
        /// there were none (and in reports written before conditions existed).
        public var noPushCondition: Int?
        /// Invalid events by cause (e.g. `bad_json`, `missing_field`).
        public var invalid: [String: Int]
        /// The first bad lines (at most ``EventTally/badLineSampleLimit``), in the order they were read.
        public var badLineSamples: [BadLine]
        /// SHA-256 of the stream file's bytes (lower-case hex): which recording was replayed. Absent in
        /// reports written before it existed.
        public var streamSHA256: String?
        /// The pushes the workload said the stream plans, over all shards, when it knows. Absent in reports
        /// written before it existed.
        public var expectedPushes: Int?
        /// Pushes planned by each push rule, by event kind and rule name (an event's only rule, unnamed, is
        /// `1`); they add up to the pushes the events planned (``expectedPushes`` less one per invalid event).
        /// Absent in reports written before it existed.
        public var pushesByRule: [String: [String: Int]]?
        /// Pushes planned at a priority of their own (their rule's or event's): the profile's `priority` (and
        /// `--priority`) reached the others. Absent when none (and in reports written before it existed).
        public var pushesAtOwnPriority: Int?
        /// Every push rule's pushes, by event kind and rule name: planned, handed to the sender, and not sent by cause
        /// where the workload planned them (a push the sender then did not send, coalesced or to a dead token, is
        /// in ``Pushes``). Absent for a workload without rules, and in reports written before it existed.
        public var pushRules: [PushRule]?
        /// How many passes over the recording the run made when it looped it (`loop_recording`); absent when
        /// it did not loop. Every pass's events are counted above.
        public var recordingPasses: Int?

        public init(read: Int, byKind: [String: Int], producedPushes: Int, stateOnly: Int, invalid: [String: Int], badLineSamples: [BadLine]) {
            self.read = read
            self.byKind = byKind
            self.producedPushes = producedPushes
            self.stateOnly = stateOnly
            self.invalid = invalid
            self.badLineSamples = badLineSamples
        }

        /// Sum of ``invalid`` over all causes.
        public var invalidTotal: Int { invalid.values.reduce(0, +) }

        /// Whether every event read is in exactly one class.
        public var balanced: Bool { read == producedPushes + stateOnly + (noPushCondition ?? 0) + invalidTotal }
    }

    /// One bad line of the stream, as kept for the report. `detail` has device tokens redacted.
    public typealias BadLine = EventTally.BadLine

    /// Every planned push ends in exactly one class:
    /// `planned == delivered + sum(rejected) + sum(failed) + timedOut + sum(notSent)`.
    public struct Pushes: Codable, Sendable, Equatable {
        /// Pushes the run planned (one per outcome recorded).
        public var planned: Int
        /// The number of pushes the workload said it would plan, if it knew; `balanced` also requires it to equal `planned`.
        public var expectedPlanned: Int?
        /// Answered 200.
        public var delivered: Int
        /// Rejected by APNs, by reason (`BadDeviceToken`), with the HTTP status of that reason.
        public var rejected: [String: Rejection]
        /// Transport failures by `TransportError.key` (`curl_7_couldnt_connect`).
        public var failed: [String: Int]
        /// No answer within the push timeout.
        public var timedOut: Int
        /// Never sent, by `NotSentCause.rawValue` (`no_token`).
        public var notSent: [String: Int]
        /// Whether the classes add up to `planned` (and `planned` equals `expectedPlanned`, if known), with
        /// ``wouldNotDecode`` a part of `delivered`.
        public var balanced: Bool
        /// Of `delivered`: the pushes the device would not decode, checked against the workload's ActivityKit
        /// model. Absent when no model was named (and in reports written before it existed).
        public var wouldNotDecode: WouldNotDecode?

        public init(
            planned: Int, expectedPlanned: Int? = nil, delivered: Int, rejected: [String: Rejection],
            failed: [String: Int], timedOut: Int, notSent: [String: Int], balanced: Bool
        ) {
            self.planned = planned
            self.expectedPlanned = expectedPlanned
            self.delivered = delivered
            self.rejected = rejected
            self.failed = failed
            self.timedOut = timedOut
            self.notSent = notSent
            self.balanced = balanced
        }

        /// Sum of ``rejected`` counts over all reasons.
        public var rejectedTotal: Int { rejected.values.reduce(0) { $0 + $1.count } }
        /// Sum of ``failed`` over all keys.
        public var failedTotal: Int { failed.values.reduce(0, +) }
        /// Sum of ``notSent`` over all causes.
        public var notSentTotal: Int { notSent.values.reduce(0, +) }
        /// Every terminal class added up: equal to ``planned`` when the pushes balance.
        public var classesTotal: Int { delivered + rejectedTotal + failedTotal + timedOut + notSentTotal }
        /// Of ``notSent``: the pushes due after the run's end (`after_end`: its duration ran out first).
        /// Planned, never due: not a loss.
        public var afterEnd: Int { notSent[NotSentCause.afterEnd.rawValue] ?? 0 }
        /// The pushes that were due while the run ran: `planned` less ``afterEnd``. The delivered share and the
        /// error shares of the SLO are taken of these.
        public var due: Int { planned - afterEnd }
        /// Of ``notSent``: the pushes that were due and not sent (every cause but `after_end`).
        public var notSentDue: Int { notSentTotal - afterEnd }
        /// ``notSent`` without `after_end`.
        public var notSentDueByCause: [String: Int] { notSent.filter { $0.key != NotSentCause.afterEnd.rawValue } }

        /// Not-sent causes that are no loss: the push was never owed to anyone. Due after the run's end
        /// (`after_end`); replaced on purpose by a newer update (`coalesced`); nobody to receive it
        /// (`no_recipients`, `no_token`, `unknown_target`); no target could take it (`dead_token`, a token
        /// already answered 410; `channel_gone`). Every other cause (`bad_line`, `run_stopped`,
        /// `interrupted`, `target_unreachable`, a workload's own) is a loss.
        public static let notOwedCauses: Set<String> = [
            NotSentCause.afterEnd.rawValue, NotSentCause.coalesced.rawValue, NotSentCause.noRecipients.rawValue,
            NotSentCause.noToken.rawValue, NotSentCause.unknownTarget.rawValue, "dead_token", "channel_gone",
        ]
        /// Of ``notSent``: the pushes never owed (``notOwedCauses``).
        public var notOwed: Int { notSent.filter { Self.notOwedCauses.contains($0.key) }.values.reduce(0, +) }
        /// The pushes owed a delivery: `planned` less ``notOwed``. The delivered share and the SLO's error
        /// shares are of these, in `run`, `merge`, `sweep` and `compare` alike.
        public var owed: Int { planned - notOwed }
        /// Of ``notSent``: the pushes owed and not sent (losses).
        public var notSentLost: Int { notSentTotal - notOwed }
        /// The delivered share: delivered ÷ ``owed``; nil when nothing was owed. Live Activity updates the
        /// device's budget would throttle were accepted by APNs: delivered, and counted apart
        /// (`liveActivityBudget`).
        public var deliveredShare: Double? { owed > 0 ? Double(delivered) / Double(owed) : nil }
    }

    /// How often one APNs reason was answered, and its HTTP status.
    public struct Rejection: Codable, Sendable, Equatable {
        /// The HTTP status APNs answered with (0 for a reason not in the table and no status seen).
        public var status: Int
        /// Pushes rejected with this reason.
        public var count: Int

        public init(status: Int, count: Int) {
            self.status = status
            self.count = count
        }
    }

    /// Latency in microseconds. The summaries (``serviceTime``, ``responseTime``, ``byPriority``,
    /// ``byPushType``) are of delivered pushes only; pushes that were sent but rejected, failed or
    /// timed out are counted in ``undeliveredSent`` and have their own views in ``byOutcome``.
    /// ``histograms`` holds every one of these histograms encoded, so they can be merged and redrawn.
    public struct Latency: Codable, Sendable, Equatable {
        /// From the actual send (hand-off to libcurl) to the response.
        public var serviceTime: LatencySummary
        /// From the intended send time to the response: corrected for coordinated omission.
        public var responseTime: LatencySummary
        /// The same two views per `apns-priority` (`"1"`, `"5"`, `"10"`), for priorities with at least one delivered push.
        public var byPriority: [String: PriorityLatency]
        /// The same two views per `apns-push-type` (a run sends one push type, so this holds the overall
        /// views under its name); nil in reports written before it existed.
        public var byPushType: [String: PriorityLatency]?
        /// Pushes that were sent but not delivered, and so are not in the histograms.
        public var undeliveredSent: Int
        /// The two views per outcome class of the pushes that were sent and answered (`delivered`,
        /// `rejected`, `failed`, `timedOut`), for classes with at least one such push; nil in older reports.
        public var byOutcome: [String: PriorityLatency]?
        /// Every histogram above, encoded; nil in older reports.
        public var histograms: EncodedLatency?

        public init(serviceTime: LatencySummary, responseTime: LatencySummary, byPriority: [String: PriorityLatency],
                    byPushType: [String: PriorityLatency]? = nil, undeliveredSent: Int,
                    byOutcome: [String: PriorityLatency]? = nil, histograms: EncodedLatency? = nil) {
            self.serviceTime = serviceTime
            self.responseTime = responseTime
            self.byPriority = byPriority
            self.byPushType = byPushType
            self.undeliveredSent = undeliveredSent
            self.byOutcome = byOutcome
            self.histograms = histograms
        }
    }

    /// The latency histograms of a run in HdrHistogram's V2 compressed form, base64 (``EncodedHistogram``):
    /// the encoding of a line of an `.hlog` interval log. Values are microseconds; the histograms track
    /// 1 µs … 1 h at 3 significant digits. Keys are those of the summaries in ``Latency``.
    public struct EncodedLatency: Codable, Sendable, Equatable {
        /// Always `"hdrhistogram-v2-compressed-base64"`.
        public var encoding: String
        /// Always `"us"`.
        public var unit: String
        /// All delivered pushes.
        public var overall: EncodedPair
        public var byPriority: [String: EncodedPair]
        public var byPushType: [String: EncodedPair]
        public var byOutcome: [String: EncodedPair]

        public static let encodingName = "hdrhistogram-v2-compressed-base64"

        public init(overall: EncodedPair, byPriority: [String: EncodedPair], byPushType: [String: EncodedPair], byOutcome: [String: EncodedPair]) {
            encoding = Self.encodingName
            unit = "us"
            self.overall = overall
            self.byPriority = byPriority
            self.byPushType = byPushType
            self.byOutcome = byOutcome
        }
    }

    /// Service time and response time of one set of pushes, each encoded.
    public struct EncodedPair: Codable, Sendable, Equatable {
        public var serviceTime: String
        public var responseTime: String

        public init(serviceTime: String, responseTime: String) {
            self.serviceTime = serviceTime
            self.responseTime = responseTime
        }

        /// Both histograms decoded (``EncodedHistogram/decode(_:)``).
        public func decoded() throws -> (serviceTime: Histogram<UInt64>, responseTime: Histogram<UInt64>) {
            (try EncodedHistogram.decode(serviceTime), try EncodedHistogram.decode(responseTime))
        }
    }

    /// Service and response time of one priority's delivered pushes.
    public struct PriorityLatency: Codable, Sendable, Equatable {
        public var serviceTime: LatencySummary
        public var responseTime: LatencySummary

        public init(serviceTime: LatencySummary, responseTime: LatencySummary) {
            self.serviceTime = serviceTime
            self.responseTime = responseTime
        }
    }

    /// Throughput over the sending window.
    public struct Throughput: Codable, Sendable, Equatable {
        /// Completed pushes divided by the seconds from the first send to the last completion; 0 if that window is empty.
        public var pushesPerSecond: Double
        /// Pushes handed to the transport.
        public var sent: Int
        /// Sent pushes that ended with an answer, a transport failure or a timeout.
        public var completed: Int

        public init(pushesPerSecond: Double, sent: Int, completed: Int) {
            self.pushesPerSecond = pushesPerSecond
            self.sent = sent
            self.completed = completed
        }
    }

    /// One interval of the run (`second` is its start). Sends count in the interval they were sent, the rest
    /// in the interval they completed.
    /// The fields after `errors` are absent in reports written before they existed.
    public struct TimelineEntry: Codable, Sendable, Equatable {
        /// Whole seconds since the run's start (0-based).
        public var second: Int
        /// Pushes sent in this second.
        public var sent: Int
        /// Sent pushes that completed in this second (any outcome).
        public var completed: Int
        /// Pushes delivered in this second.
        public var delivered: Int
        /// Pushes rejected, failed or timed out in this second.
        public var errors: Int
        /// Of ``errors``: rejected by APNs, failed in transport, timed out.
        public var rejected: Int?
        public var failed: Int?
        public var timedOut: Int?
        /// Pushes sent and not yet completed at the end of this second.
        public var inFlight: Int?
        /// Response times (µs) of this second's deliveries: HdrHistogram V2 compressed, base64
        /// (``EncodedHistogram``); absent when nothing was delivered in this second.
        public var responseTime: String?
        /// Connections open at the interval's end (opened minus lost or ended by the server).
        public var connectionsOpen: Int?
        /// Connections the server ended gracefully in the interval (GOAWAY, or a close between
        /// requests) that libcurl replaced by itself.
        public var goAways: Int?
        /// Connections opened in the interval beyond the first ones.
        public var reconnects: Int?
        /// Provider tokens signed in the interval.
        public var tokenSignings: Int?
        /// Connections lost in the interval to a transport error (reset, refused, closed under a request)
        /// or a `503 Shutdown` answer.
        public var connectionsLost: Int?
        /// Pushes sent again in the interval, by the cause of the attempt before (a transport error key such
        /// as `curl_7_couldnt_connect`, or an APNs reason such as `ServiceUnavailable`); absent when none.
        public var resends: [String: Int]?

        /// Resends in the interval whose attempt before failed in transport (no answer from the target).
        public var transportResends: Int { (resends ?? [:]).filter { RetryableCause.isTransportKey($0.key) }.values.reduce(0, +) }

        public init(second: Int, sent: Int, completed: Int, delivered: Int, errors: Int,
                    rejected: Int? = nil, failed: Int? = nil, timedOut: Int? = nil, inFlight: Int? = nil, responseTime: String? = nil,
                    connectionsOpen: Int? = nil, goAways: Int? = nil, reconnects: Int? = nil, tokenSignings: Int? = nil,
                    connectionsLost: Int? = nil, resends: [String: Int]? = nil) {
            self.connectionsLost = connectionsLost
            self.resends = resends
            self.connectionsOpen = connectionsOpen
            self.goAways = goAways
            self.reconnects = reconnects
            self.tokenSignings = tokenSignings
            self.second = second
            self.sent = sent
            self.completed = completed
            self.delivered = delivered
            self.errors = errors
            self.rejected = rejected
            self.failed = failed
            self.timedOut = timedOut
            self.inFlight = inFlight
            self.responseTime = responseTime
        }
    }
}

extension RunReport.Events {
    /// The event kinds with more than one push rule, by name, each with its rules' planned pushes in rule-name
    /// order (what the views list; a kind with one rule is its kind's count already).
    public var severalRules: [(kind: String, counts: [(rule: String, pushes: Int)])] {
        (pushesByRule ?? [:]).filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { kind, rules in
            (kind, rules.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }
}
