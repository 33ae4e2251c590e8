import APNsCore
import Foundation

/// A run profile (`profiles/NAME.yaml`): which recorded stream to replay, how its events become pushes,
/// and how to send them. Paths in a profile are relative to the profile's own folder.
public struct RunProfile: Sendable, Equatable {
    /// What to do with a stream line that cannot be read.
    public enum BadLinePolicy: String, Sendable, CaseIterable {
        /// Count it (as not sent, by cause) and go on. The default.
        case skip
        /// Stop the run at the first one; the report is still written.
        case stop
    }

    /// A short name, used in reports.
    public var name: String
    /// Free text shown in `--help`-like listings.
    public var description: String?
    /// The workload that turns events into pushes (`leave-requests`).
    public var workload: String
    /// The NDJSON recording to replay.
    public var streamPath: String
    /// The payload template (JSON with `{{slots}}`).
    public var templatePath: String
    /// `apns-push-type`. Default `liveactivity`.
    public var pushType: PushType = .liveactivity
    /// The app's bundle id; the topic is this plus the push type's suffix.
    public var bundleID: String
    /// `apns-priority`. Default 10.
    public var priority: Priority = .immediate
    /// `apns-expiration` = send time + this many seconds; nil sends no header. Default nil.
    public var expirationSeconds: Int?
    /// HTTP/2 connections. Default 1.
    public var connections = 1
    /// Streams per connection. Default 100.
    public var streams = 100
    /// Engine threads, each with its own share of `connections` (so at least one connection per worker);
    /// pushes to one device token always go to the same worker. Default 1.
    public var workers = 1
    /// Provider token refresh interval in minutes, [20, 60). Default 50.
    public var tokenRefreshMinutes: Double = 50
    /// How long one push may take before it counts as timed out (ms). Default 30 000 (seed 003's 30 s).
    public var pushTimeoutMillis = 30_000
    /// Default `.skip`.
    public var badLines: BadLinePolicy = .skip
    /// A file of device tokens the stream plants as dead (one a line): the embedded simulator answers them
    /// 410 Unregistered, as APNs would for an app that was deleted. Default none.
    public var deadTokensPath: String?
    /// Coalescing window for Live Activity updates to the same token (recorded ms); nil = off. Default off.
    public var coalesceMillis: Int64?
    /// `apns-collapse-id` on every push (1–64 bytes); nil sends none.
    public var collapseID: String?
    /// Retries: attempts in all (1 = never retry), first backoff and the longest time from the first
    /// send. Nil keeps the engine's defaults (10 attempts, 1 s doubling, 5 minutes: seed 002's schedule).
    public var retryAttempts: Int?
    public var retryBackoffMillis: Int64?
    public var retryMaxElapsedMillis: Int64?
    /// Service-level objective the report checks: p99 latency (from the intended send) at most this
    /// many ms, and at least this share of planned pushes delivered. Nil: not checked.
    public var sloP99Millis: Int?
    public var sloMinDelivered: Double?
    /// When pushes are due. Default closed loop (as fast as the in-flight window allows).
    public var schedule: Schedule = .closedLoop

    /// The topic pushes are sent to.
    public var topic: String { pushType.topic(bundleID: bundleID) }

    public init(name: String, workload: String, streamPath: String, templatePath: String, bundleID: String) {
        self.name = name
        self.workload = workload
        self.streamPath = streamPath
        self.templatePath = templatePath
        self.bundleID = bundleID
    }
}

/// A profile that could not be read, naming the file, the line and the key.
public struct ProfileError: Error, CustomStringConvertible, Equatable {
    public let file: String
    public let line: Int?
    public let message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
