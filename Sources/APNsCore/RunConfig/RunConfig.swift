/// Everything one run is made with, as one value: what the profile says, with the command line's flags
/// laid over it (``overlaying(_:)``), checked once (``validate(cores:)``), turned into the engine's
/// settings in one place, and embedded verbatim in `report.json` as `configuration`.
///
/// Sweep varies its keys, compare refuses two runs whose configurations differ, and merge requires the
/// shards' configurations to be equal: so every knob that changes what a run does lives here, and
/// nothing that is secret (the provider key) or machine-specific (ports, paths of temporary files) does.
///
/// Sections follow async-http-client's `HTTPClient.Configuration`: each is a small struct whose
/// properties state their defaults.
public struct RunConfig: Codable, Equatable, Sendable {
    /// The profile's name, e.g. `order-changes`.
    public var name: String
    /// The profile's free-text description.
    public var description: String?
    /// The profile file the run started from, e.g. `profiles/order-changes.yaml`.
    public var profilePath: String
    /// Which recording, which rules turn its events into pushes, and what to do with a bad line.
    public var workload: Workload
    /// Where pushes go. Default the embedded simulator (``RunDefaults``, from ``RunSettings``).
    public var target: Target = RunDefaults.target
    /// Provider-token (JWT) handling.
    public var auth = Auth()
    /// Connections, streams and engine threads.
    public var transport = Transport()
    /// When pushes are due, and how long the run may send.
    public var schedule = Scheduling()
    /// Per-push headers.
    public var payload = Payload()
    /// What is resent after which answer, and when.
    public var retry = Retry()
    /// The batching knob for Live Activity updates.
    public var coalescing = Coalescing()
    /// What the report checks the run against.
    public var slo = SLO()
    /// The embedded simulator, when the target is the simulator.
    public var simulator = Simulator()
    /// How a group's update reaches the devices following it: one push per device (`device`, nil) or one
    /// broadcast per group's channel (`broadcast`, iOS 18+ broadcast channels; order-changes only).
    public var delivery: Delivery?
    /// Broadcast delivery: keep the channels the run created instead of deleting them at its end.
    public var keepChannels: Bool?

    /// The delivery in force: ``delivery`` or the default, `.device` (``RunDefaults``, from ``RunSettings``).
    public var deliveryMode: Delivery { delivery ?? RunDefaults.delivery }

    public enum Delivery: String, Codable, Sendable, CaseIterable {
        /// One push per device token (`POST /3/device/<token>`).
        case device
        /// One push per store's broadcast channel (`POST /4/broadcasts/apps/<bundle>` with `apns-channel-id`);
        /// the run creates the channels first and deletes them at its end.
        case broadcast
    }

    /// This process's part of a sharded run (`--shard I/N`, or `--shards N` with I from
    /// `JOB_COMPLETION_INDEX`); nil: the whole run. The only key in which the shards' configurations differ.
    public var shard: Shard?
    /// The report's timeline interval in whole seconds, 1–3600; nil (and reports written before it
    /// existed): 1 s. Use ``timelineIntervalSeconds``.
    public var reportIntervalSeconds: Int?
    /// The explicit opt-in to load production APNs above ``productionSafeRate`` pushes a second (or with a
    /// schedule whose rate is unbounded: closed loop, recorded times). Nil or false: refused.
    public var allowProductionLoad: Bool?
    /// The Live Activity budget the report judges the recording by: priority-10 updates one activity may
    /// get per rolling hour of recorded time before iOS throttles, 1–1 000 000 (an assumption: Apple does
    /// not publish it); 0 counts nothing; nil: 10. Counted only for Live Activity pushes.
    public var liveActivityBudget: Int?

    /// The budget in force: ``liveActivityBudget`` or 10; 0 when off or when the run sends no Live Activity updates.
    public var liveActivityBudgetPerHour: Int { sendsLiveActivities ? liveActivityBudget ?? RunDefaults.liveActivityBudget : 0 }

    /// Whether the workload (or a part of a mix) sends Live Activity updates.
    public var sendsLiveActivities: Bool { workload.parts.contains { $0.pushType == .liveactivity } }

    /// The fastest a run against production may send without ``allowProductionLoad``: 100 pushes a second.
    public static let productionSafeRate = 100.0

    public init(name: String, profilePath: String, workload: Workload) {
        self.name = name
        self.profilePath = profilePath
        self.workload = workload
    }

    /// The report's timeline interval in seconds: ``reportIntervalSeconds`` or the default, 1 (``RunDefaults``, from ``RunSettings``).
    public var timelineIntervalSeconds: Int { reportIntervalSeconds ?? RunDefaults.reportIntervalSeconds }

    /// The topic pushes are sent to (a mix's first part's; each part has its own, ``Workload/topic``).
    public var topic: String { workload.parts[0].topic }

    /// One shard of a run split over `count` processes: it reads the whole stream, applies every event to
    /// its state, and sends only the pushes whose device token hashes to `index` (``TokenPartition``);
    /// an open-loop rate is split evenly (``Schedule/share(of:)``).
    public struct Shard: Codable, Equatable, Sendable, CustomStringConvertible {
        /// The most shards a run may have.
        public static let countLimit = 1024
        /// 0-based.
        public var index: Int
        public var count: Int
        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }
        /// `I/N`, as `--shard` takes it.
        public var description: String { "\(index)/\(count)" }
    }

    /// The schedule this process paces by: the configured one, with an open-loop rate split over the shards.
    public var effectiveSchedule: Schedule { schedule.mode.share(of: shard?.count ?? 1) }

    /// The recorded stream and how its events become pushes.
    public struct Workload: Codable, Equatable, Sendable {
        /// How bad stream lines are handled.
        public enum BadLinePolicy: String, Codable, Sendable, CaseIterable {
            /// Count it (an invalid event, and one push not sent `bad_line`) and go on. The default.
            case skip
            /// Stop the run at the first one; the report is still written.
            case stop
        }

        /// The workload that turns events into pushes, e.g. `order-changes`.
        public var name: String
        /// The NDJSON recording (a path resolved against the profile's folder).
        public var stream: String
        /// The recipe: the app's events, state and push rules (`Replay`'s `RecipeLoader` reads it), a path
        /// resolved against the profile's folder. Nil only in reports written before recipes.
        public var recipe: String?
        /// `apns-push-type`. Default `liveactivity` (``RunDefaults``, from ``RunSettings``).
        public var pushType: PushType = RunDefaults.pushType
        /// The app's bundle id; the topic is this plus the push type's suffix.
        public var bundleID: String
        /// A file of device tokens the stream plants as dead (one a line): the embedded simulator answers
        /// them 410 Unregistered. Default none.
        public var deadTokens: String?
        /// Default `.skip` (``RunDefaults``, from ``RunSettings``).
        public var badLines: BadLinePolicy = RunDefaults.badLines
        /// The app's ActivityKit model this workload's Live Activity pushes are checked against
        /// (`activity_model`); nil checks nothing. Default nil. A mix's parts each name their own.
        public var activityModel: ActivityKitModelFile?
        /// A mix (`workload: mix`): several recordings replayed together, each with its own rules, push
        /// type and topic, interleaved by recorded time from their starts (``MixedWorkload``). Nil: one
        /// recording, this workload's. A mix's own `stream`, `template` and `bundleID` are empty: its
        /// parts have them, and every use of a workload goes through ``parts``.
        public var mix: [Workload]?

        /// The name a mix's ``name`` has.
        public static let mixName = "mix"
        /// The most parts a mix may have.
        public static let mixPartLimit = 8

        /// The recordings this workload replays: a mix's parts, or itself.
        public var parts: [Workload] { mix ?? [self] }

        /// The push type every part sends; nil for a mix of push types.
        public var commonPushType: PushType? {
            let types = Set(parts.map(\.pushType))
            return types.count == 1 ? types.first : nil
        }

        /// The topic this (one-recording) workload's pushes go to.
        public var topic: String { pushType.topic(bundleID: bundleID) }

        /// `leave-requests`, or for a mix `mix(leave-requests+order-changes+cdbl-leave)`.
        public var label: String { mix.map { "\(name)(\($0.map(\.name).joined(separator: "+")))" } ?? name }

        /// The stream file, or a mix's streams joined by ` + `, for messages.
        public var streamLabel: String { parts.map(\.stream).joined(separator: " + ") }

        public init(name: String, stream: String, recipe: String, bundleID: String) {
            self.name = name
            self.stream = stream
            self.recipe = recipe
            self.bundleID = bundleID
        }
    }

    /// Provider-token (JWT) handling.
    public struct Auth: Codable, Equatable, Sendable {
        /// Minutes between signings of the provider token, at least 20 and below 60 (APNs refuses tokens
        /// older than an hour and answers TooManyProviderTokenUpdates to more than one new token in 20
        /// minutes). Default 50 (``RunDefaults``, from ``RunSettings``).
        public var tokenRefreshMinutes: Double = RunDefaults.tokenRefreshMinutes
        public init() {}
    }

    /// Connections, streams and threads.
    public struct Transport: Codable, Equatable, Sendable {
        /// HTTP/2 connections in all, 1–64. Default 1 (``RunDefaults``, from ``RunSettings``).
        public var connections = RunDefaults.connections
        /// Concurrent streams per connection, 1–1000 (APNs allows about 1000). Default 100 (``RunDefaults``, from ``RunSettings``).
        public var streams = RunDefaults.streams
        /// Engine threads, each with its own share of `connections` (so at least one connection each);
        /// pushes to one device token always go to the same worker. Default 1 (``RunDefaults``, from ``RunSettings``).
        public var workers = RunDefaults.workers
        /// How long one push may take from send to answer before it counts as timed out, in ms, 1–600 000.
        /// Default 30 000 (``RunDefaults``, from ``RunSettings``).
        public var pushTimeoutMillis = RunDefaults.pushTimeoutMillis
        /// While no connection to the target has ever succeeded, how long connect, DNS, TLS or ALPN failures
        /// may go on before the run gives up (exit 1, the cause named), 1–600 s; nil: 10 s.
        public var failFastSeconds: Double?
        /// The stall watchdog: a push on a connection that has moved no byte for this many whole seconds
        /// gives the connection up (the engine shuts its socket, every push on it is retried by the retry
        /// policy, the report counts the stall), 1–600 and shorter than the push timeout; 0 turns it off;
        /// nil: 10 s.
        public var stallTimeoutSeconds: Int?
        public init() {}

        /// ``failFastSeconds`` or its default, 10 s (``RunDefaults``, from ``RunSettings``).
        public var failFastLimit: Double { failFastSeconds ?? RunDefaults.failFastSeconds }
        /// ``stallTimeoutSeconds`` or its default, 10 s (``RunDefaults``, from ``RunSettings``) (0: off).
        public var stallLimit: Int { stallTimeoutSeconds ?? RunDefaults.stallTimeoutSeconds }

        /// Pushes in flight at most: every stream of every connection.
        public var window: Int { connections * streams }
    }

    /// When pushes are due.
    public struct Scheduling: Codable, Equatable, Sendable {
        /// Default closed loop: as fast as the in-flight window allows.
        public var mode: Schedule = .closedLoop
        /// Stop sending after this many seconds; what was not sent is counted as not sent. Default none.
        public var durationSeconds: Double?
        /// Replay the recording again when it runs out before the duration ends: each pass is the workload
        /// anew over the same stream (the same tokens and payloads), its recorded times shifted past the
        /// pass before. Only with a duration. Default off (nil); `sweep` turns it on.
        public var loopRecording: Bool?
        public init() {}
    }

    /// Headers every push carries.
    public struct Payload: Codable, Equatable, Sendable {
        /// `apns-priority` of pushes whose event does not choose one. Default 10 (``RunDefaults``, from ``RunSettings``).
        public var priority: Priority = RunDefaults.priority
        /// `apns-expiration` = the run's start + this many seconds (0: deliver now or never), 0 to 30 days;
        /// nil sends no header. Default nil.
        public var expirationSeconds: Int?
        /// `apns-collapse-id` on every push, 1–64 bytes; nil sends none. Default nil.
        public var collapseID: String?
        /// `apns-priority` laid over the pushes in its scope whatever their events chose; nil: none. Default nil.
        public var priorityOverride: PriorityOverride?
        public init() {}
    }

    /// The retry policy: 5xx and transport errors back off exponentially; 429 holds that token;
    /// ExpiredProviderToken re-signs and retries once; 410 marks the token dead; other 4xx are final.
    public struct Retry: Codable, Equatable, Sendable {
        /// Attempts in all, the first included, 1–100 (1: never retry). Default 10 (``RunDefaults``, from ``RunSettings``).
        public var attempts = RunDefaults.retryAttempts
        /// Delay before the second attempt, ms. Default 1 000 (``RunDefaults``, from ``RunSettings``).
        public var backoffMillis: Int64 = RunDefaults.retryBackoffMillis
        /// Each further delay is the previous one times this. Default 2.
        public var multiplier: Double = 2
        /// No single delay is longer than this (ms), nor shorter than `backoffMillis`. Default 60 000.
        public var maxBackoffMillis: Int64 = 60_000
        /// No retry later than this long after the first send, ms. Default 300 000 (5 minutes) (``RunDefaults``, from ``RunSettings``).
        public var maxElapsedMillis: Int64 = RunDefaults.retryMaxElapsedMillis
        /// First hold of a device token answered 429, doubling while refused, ms. Default 1 000.
        public var tokenBackoffMillis: Int64 = 1_000
        public init() {}
    }

    /// Live Activity update coalescing.
    public struct Coalescing: Codable, Equatable, Sendable {
        /// Updates to one token within this window of recorded time collapse into the latest; nil: off.
        /// Default off.
        public var windowMillis: Int64?
        public init() {}
    }

    /// The service-level objective the report checks; nil rules are not checked.
    public struct SLO: Codable, Equatable, Sendable {
        /// p99 response time (from the intended send) at most this many ms, 1 ms – 1 hour.
        public var p99Millis: Int?
        /// At least this share of the pushes owed delivered, 0–1 (`RunReport.Pushes.deliveredShare`).
        public var minDelivered: Double?
        /// At most this share of the pushes owed in each named class, 0–1, by class
        /// (``ErrorClass``): `{"rejected": 0.01, "timed_out": 0}`.
        public var maxErrorShare: [String: Double]?
        /// At most this share of delivered pushes that the device would not decode (checked against the
        /// workload's ``Workload/activityModel``), 0–1; 0 allows none.
        public var maxWouldNotDecode: Double?
        /// With a device model: p99 time to device (from the intended send, ms of recorded time) of the pushes shown,
        /// at most this, 1 ms – 30 days; and at most this share of delivered pushes throttled on the device, 0–1.
        public var p99TimeToDeviceMillis: Int?
        public var maxThrottledShare: Double?
        /// For a sweep: the peak the knee must carry, pushes a second (above 0), and the headroom over it
        /// required, a multiple of at least 1 (1 when only the peak is given).
        public var capacityPeakPerSecond: Double?
        public var capacityMinHeadroom: Double?
        public init() {}

        /// Whether any rule is set.
        public var isEmpty: Bool {
            p99Millis == nil && minDelivered == nil && (maxErrorShare ?? [:]).isEmpty && maxWouldNotDecode == nil
                && p99TimeToDeviceMillis == nil && maxThrottledShare == nil && capacityPeakPerSecond == nil && capacityMinHeadroom == nil
        }

        /// The classes `slo_max_error_share` may limit, each a share of the planned pushes.
        public enum ErrorClass: String, CaseIterable, Sendable {
            /// APNs answered with an error reason.
            case rejected
            /// Transport failures after every attempt.
            case failed
            /// No answer within the push timeout.
            case timedOut = "timed_out"
            /// Planned but never sent (no token, expired, run stopped, ...).
            case notSent = "not_sent"
            /// Rejected, failed and timed out together.
            case errors
        }
    }

    /// The embedded simulator.
    public struct Simulator: Codable, Equatable, Sendable {
        /// The `simulator:` section's keys that belong to the run, not to the simulator's configuration file:
        /// `fast` (``fast``) and `model` (``model``). The profile reader takes them out of the section; the
        /// simulator's reader skips them.
        public static let runKeys = ["fast", "model"]
        /// Answer 200 to everything without validating, so the numbers are the client's. Only with the
        /// simulator target. Default false (validating).
        public var fast = false
        /// The profile's `simulator:` section as written (every key of `apnsbench simulate --config` but
        /// `fast`, which is ``fast``): the APNs model and the faults a run rehearses against. Default none:
        /// an answer at once, no faults.
        public var settings: ConfigValue?
        /// The APNs model under ``settings``: a preset's name (``APNsLatencyModel``) or the path of a model file
        /// (`apnsbench model fit` writes one); `--apns-model`, or `model:` in the section. Default none.
        public var model: String?
        /// A model file's keys, read from ``model``'s file when it names one (the report keeps them, so a run
        /// says which model it ran against even when the file changed since).
        public var modelFileSettings: ConfigValue?
        /// The simulator's configuration as it answered, by value, key by key (`SimulatorKeys.effectiveValues`):
        /// every key of its configuration table with its value, the devices files' SHA-256, the device model's
        /// parameters and the seeds. Written by a run against the embedded simulator and by
        /// `apnsbench simulate --report`; nil when the writer could not see the simulator (a run against one
        /// in another process) and in reports written before it existed.
        public var effective: [String: String]?
        public init() {}

        /// What the simulator is configured with: the model's keys, the section's laid over them.
        public var effectiveSettings: ConfigValue? {
            let preset = model.flatMap(APNsLatencyModel.named)?.settings ?? modelFileSettings
            switch (preset, settings) {
            case let (p?, s?): return p.overlaid(with: s)
            case let (p, s): return p ?? s
            }
        }

        /// `fast` or `validating`.
        public var mode: String { fast ? "fast" : "validating" }
    }
}
