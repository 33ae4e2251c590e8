import APNsCore

/// What each run setting does, in words: the help `run` and `sweep` print for its flag (``flagHelp(_:statingValues:)``),
/// one entry per row of ``RunSettings``. It lives here, with the command line, so that editing a help text rebuilds the
/// command line's modules only; APNsCore's table keeps each setting's key, default, range and rule, and ``RunSettingFlags``
/// its flag.
public enum RunSettingHelp {
    /// Each setting's help, by key.
    public static let text: [ConfigKey: String] = [
        .name: "The profile's name.",
        .description: "Free text.",
        .workload: "The rules that turn the recording's events into pushes.",
        .stream: "The NDJSON recording, relative to the profile's folder.",
        .recipe: "The recipe: the app's events, state and push rules (docs/recipes.md), relative to the profile's folder.",
        .pushType: "apns-push-type.",
        .bundleID: "The app's bundle id; the topic is this plus the push type's suffix.",
        .mix: "With workload: mix, the recordings replayed together, each {recipe, stream, bundle_id, push_type} and its own activity_model.",
        .activityModel: "The app's ActivityKit model (a Swift file) every Live Activity push is checked against.",
        .activityModelType: "The attributes struct's name, when the model file declares several.",
        .dateDecoding: "How the app's decoder reads Date values.",
        .activityModelFlags: "The custom compilation flags of the app's build (Active Compilation Conditions), for the model file's #if blocks; "
            + "[DEBUG] for a Debug build.",
        .deadTokens: "A file of device tokens (one a line) the embedded simulator answers 410 Unregistered.",
        .badLines: "What a bad stream line does: skip counts it and goes on; stop ends the run at it.",
        .target: "Where pushes go: the embedded simulator, APNs, or any APNs-like server.",
        .delivery: "device: one push per device following a store; broadcast: one push per store's broadcast channel (iOS 18+; order-changes): "
            + "the run creates one channel per store its recording subscribes activities to (input_push_channel), and deletes them at its end.",
        .keepChannels: "Broadcast delivery: keep the channels the run created instead of deleting them at its end.",
        .connections: "HTTP/2 connections in all.",
        .streams: "Concurrent streams per connection.",
        .workers: "Engine threads, each with its own libcurl multi handle, share of the connections (at least one each) and provider token; "
            + "pushes to one device token always go to the same worker, so per-token order holds.",
        .pushTimeout: "How long one push may take from send to answer before it counts as timed out.",
        .failFast: "While no request to the target has ever been answered, give up after DURATION of connect, DNS, TLS or ALPN failures "
            + "and exit 1 naming the cause.",
        .stallTimeout: "The stall watchdog: when pushes on a connection have moved no byte for DURATION, give the connection up and retry its pushes "
            + "by the retry policy; the report counts the stalls.",
        .tokenRefresh: "Time between signings of the provider token.",
        .priority: "apns-priority of pushes whose event does not choose one.",
        .priorityOverride: "apns-priority of every push in the scope, whatever its event chose (--priority only sets it where the event chooses none): "
            + "all pushes, or those of one push type (5:liveactivity: the Live Activity pushes). The report counts the pushes it reached and changed.",
        .expiration: "apns-expiration: DURATION after the run's start (0: deliver now or never); none sends no header.",
        .collapseID: "apns-collapse-id on every push.",
        .schedule: "Closed loop: as fast as the in-flight window (connections x streams) allows. "
            + "In a profile, schedule: closed-loop, recorded (with speed), rate (with rate) or ramp (with ramp).",
        .speed: "Open loop at the recorded times, X times faster (e.g. 60: an hour in a minute).",
        .rate: "Open loop at a fixed rate of R pushes a second.",
        .ramp: "Open loop at a rate rising from FROM to TO pushes a second over SECONDS.",
        .duration: "Stop sending after DURATION (this also ends a ramp). Pushes due after the end count as not sent 'after_end' and are not judged "
            + "(the SLO's shares are of the pushes due); pushes due before it that wait to be sent or resent get 5 s more, "
            + "and those still not sent then count as 'run_stopped'.",
        .loopRecording: "With --duration: replay the recording again, time-shifted, each time it runs out before the duration ends "
            + "(the same tokens and payloads).",
        .coalesce: "Collapse Live Activity updates to the same token within this window of recorded time to the latest.",
        .retryAttempts: "Attempts per push in all: 5xx, 429 and transport errors back off 1, 2, 4, 8 s ... within 5 minutes.",
        .retryBackoff: "Delay before the second attempt; each further one doubles, up to 60 s.",
        .retryMaxElapsed: "No retry later than this long after the first send.",
        .sloP99: "SLO: p99 response time (from the intended send) at most DURATION.",
        .sloMinDelivered: "SLO: at least this share of the pushes owed delivered (not owed: coalesced, nobody to receive, dead tokens, due after the end).",
        .sloMaxErrorShare: "SLO: at most this share of the pushes owed in a class: rejected, failed, timed_out, not_sent or errors (the first three together); "
            + "repeat the flag for several (laid over the profile's classes).",
        .sloMaxWouldNotDecode: "SLO: at most this share of delivered pushes the device would not decode, checked against the profile's activity_model.",
        .sloP99TimeToDevice: "SLO, with a device model (simulator device:): p99 time to device of the pushes shown, from the intended send, "
            + "at most DURATION of recorded time.",
        .sloMaxThrottledShare: "SLO, with a device model (simulator device:): at most this share of delivered pushes throttled on the device "
            + "(past a Live Activity budget).",
        .capacityPeak: "Sweep: the peak the knee must carry, pushes a second; a knee under it (times capacity_min_headroom) misses it, exit 99.",
        .capacityMinHeadroom: "Sweep: the headroom over capacity_peak_per_second the knee must carry (default 1).",
        .reportInterval: "The report timeline's interval.",
        .liveActivityBudget: "The Live Activity budget the report judges the recording by: priority-10 updates one activity may get per rolling hour "
            + "of recorded time before iOS throttles (an assumption, Apple does not publish it).",
        .simulator: "The embedded simulator's settings (the keys of apnsbench simulate --config): the APNs model's latency, capacity and faults.",
        .fastSimulator: "Run the embedded simulator in fast mode: 200 for everything, no validation, so the numbers are the client's.",
        .apnsModel: "The APNs model for the embedded simulator: latency, round trip, per-connection capacity with queueing, shedding "
            + "(assumptions, not Apple's figures). The profile's simulator: keys go over it.",
        .allowProductionLoad: "Allow more than 100 pushes/s to production APNs (also closed-loop and recorded-time schedules, whose rate is unbounded). "
            + "Real devices receive them; without this flag such a run is refused. Sandbox needs no flag.",
        .shard: "Be shard I of N (0-based): read the whole stream, apply every event, send only the pushes whose device token hashes to I; "
            + "an open-loop rate is split 1/N. Merge the shards' reports with `apnsbench merge`.",
    ]

    /// The help of `key`'s setting.
    public static subscript(_ key: ConfigKey) -> String {
        guard let help = text[key] else { preconditionFailure("\(key) has no help in RunSettingHelp") }
        return help
    }

    /// The flag's help: what it does, its rule and its default, and the profile key it overrides; without its rule and
    /// default when `statingValues` is false (the option's type lists its values and default itself).
    public static func flagHelp(_ s: RunSetting, statingValues: Bool = true) -> String {
        var text = self[s.key]
        switch (statingValues, s.rule.isEmpty, s.defaultValue.isEmpty) {
        case (true, false, _): text += " (\(s.rule)" + (s.defaultValue.isEmpty ? ")" : "; default \(s.defaultValue))")
        case (true, true, false): text += " (default \(s.defaultValue))"
        default: break
        }
        if let profileKey = s.profileKey { text += " Profile key: \(profileKey)." }
        return text
    }
}
