import APNsCore

/// Hands out `count` copies of one push: a prebuilt body copied into the engine's reused buffer and a
/// token from a small fixed set. Allocates nothing per push, so that a benchmark's malloc count is the
/// engine's (and libcurl's).
public final class FixedPushSource: PushSource {
    private let tokens: [String]
    private let body: [UInt8]
    private let priority: Priority
    private var remaining = 0
    private var next = 0
    private var abandoned = false

    public init(body: [UInt8], tokens: [String] = [BenchDefaults.deviceToken], priority: Priority = .immediate) {
        precondition(!tokens.isEmpty)
        self.body = body
        self.tokens = tokens
        self.priority = priority
    }

    /// Arms the source for another `count` pushes.
    public func reset(count: Int) {
        remaining = count
        abandoned = false
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        guard remaining > 0 else { return .end }
        remaining -= 1
        if abandoned {
            push.priority = priority
            return .notSent(.runStopped)
        }
        push.deviceToken = tokens[next]
        next = next + 1 == tokens.count ? 0 : next + 1
        push.body.removeAll(keepingCapacity: true)
        push.body.append(contentsOf: body)
        push.priority = priority
        push.intendedNanos = 0
        return .push
    }

    /// What was armed and not handed out ends as not sent.
    public func abandon() { abandoned = true }
}

/// Counts outcomes and keeps the first one that was not a delivery, for the error message.
public final class CountingSink: OutcomeSink {
    public private(set) var delivered = 0
    public private(set) var undelivered = 0
    public private(set) var firstProblem: Outcome?

    public init() {}

    public func reset() {
        delivered = 0
        undelivered = 0
        firstProblem = nil
    }

    public func record(_ outcome: Outcome, priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64) {
        if case .delivered = outcome {
            delivered += 1
        } else {
            undelivered += 1
            if firstProblem == nil { firstProblem = outcome }
        }
    }
}

/// The push every benchmark sends: the same bytes for the engine, the libcurl reference loop and h2load.
public enum BenchDefaults {
    public static let topic = "com.example.app"
    public static let pushType = PushType.alert
    public static let deviceToken = String(repeating: "ab", count: 32)
    /// A Live Activity update with an alert, 380 bytes or so: the size of the seeds' pushes.
    public static let body: [UInt8] = Array(#"""
        {"aps":{"timestamp":1744797892,"attributes-type":"LeaveRequestAttributes","attributes":{"id":"E0D6A1B2-7C3D-4E5F-8A9B-0C1D2E3F4A5B","studentName":"John Doe","studentId":1427,"requestTime":"2025-04-16T10:00:00Z","reason":"Doctor appointment"},"content-state":{"status":"approved","responseTime":"2025-04-16T10:04:52Z","respondedBy":"Jane Smith"},"event":"update","alert":{"title":"Leave Request Update","body":"Your leave request status has been updated."}},"activity-id":"E0D6A1B2-7C3D-4E5F-8A9B-0C1D2E3F4A5B"}
        """#.utf8)
}
