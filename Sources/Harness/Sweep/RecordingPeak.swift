import APNsCore
import Foundation
import Replay

/// The recording's own push rate, in recorded time: the workload's plan walked through once without
/// sending (no target, no engine), each push counted in the recorded second of its event. Capacity is
/// judged against it: "recorded peak X/s, knee Y/s: Z× headroom".
public struct RecordingPeak: Codable, Equatable, Sendable {
    /// Pushes the recording plans to send (not-sent ones aside).
    public var pushes: Int
    /// The busiest recorded second's pushes.
    public var peakSecond: Int
    /// The busiest minute's pushes a second (a sustained peak: one store's fan-out fills a second alone).
    public var peakMinutePerSecond: Double
    /// When the busiest minute began, ISO-8601.
    public var peakMinuteAt: String?

    /// Walks the configured workload over its stream (delivery as configured; broadcast channels are not
    /// needed to count: each is one push).
    public static func measure(_ config: RunConfig) throws -> RecordingPeak {
        let recipes = try Workloads.recipes(for: config)
        let channels: BroadcastChannels? = config.deliveryMode == .broadcast
            ? try BroadcastChannels.madeUp(stream: config.workload.stream, recipe: recipes[0])
            : nil
        let driver = try Workloads.source(config.workload, priority: config.payload.priority, recipes: recipes, channels: channels)
        var perSecond: [Int64: Int] = [:]
        var push = OutgoingPush()
        var pushes = 0
        loop: while true {
            switch driver.next(into: &push) {
            case .push:
                pushes += 1
                perSecond[push.recordedMillis / 1000, default: 0] += 1
            case .notSent, .idle: continue
            case .end: break loop
            }
        }
        var best = (start: Int64(0), count: 0)
        let seconds = perSecond.keys.sorted()
        var windowCount = 0, left = 0
        for (right, second) in seconds.enumerated() {
            windowCount += perSecond[second]!
            while seconds[left] <= second - 60 {
                windowCount -= perSecond[seconds[left]]!
                left += 1
            }
            if windowCount > best.count { best = (seconds[left], windowCount) }
            _ = right
        }
        let peakMinuteAt = best.count > 0 ? Date(timeIntervalSince1970: Double(best.start)).formatted(Date.ISO8601FormatStyle(timeZone: .gmt)) : nil
        return RecordingPeak(pushes: pushes, peakSecond: perSecond.values.max() ?? 0, peakMinutePerSecond: Double(best.count) / 60,
                             peakMinuteAt: peakMinuteAt)
    }
}
