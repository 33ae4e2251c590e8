/// Keeps `aps.timestamp` strictly increasing per activity token, as ActivityKit needs (the device keeps
/// the update with the newest timestamp, so the backend must always increase it): when recorded times
/// collide or go back within a second, the next timestamp is the last one plus 1.
public struct MonotonicTimestamps {
    private var last: [String: Int] = [:]

    public init() {}

    /// The timestamp (epoch seconds) to send to `token` for an event recorded at `seconds`.
    public mutating func next(for token: String, recordedSeconds seconds: Int) -> Int {
        let value = max(seconds, (last[token] ?? Int.min) &+ 1)
        last[token] = value
        return value
    }

    /// Forgets a token (after its activity ended or it was replaced); returns what it held.
    @discardableResult
    public mutating func forget(_ token: String) -> Int? { last.removeValue(forKey: token) }

    /// Puts back what ``forget(_:)`` returned.
    mutating func restore(_ token: String, _ value: Int?) { last[token] = value }
}
