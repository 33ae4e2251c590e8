import NIOConcurrencyHelpers

/// Counts events per key in fixed windows, shared by every connection (a per-token rate limit and the
/// Live Activity budget count across connections, as APNs does). Locked; used only when configured.
final class WindowCounter: @unchecked Sendable {
    private struct Window { var start: Double; var count: Int }
    private let lock = NIOLock()
    private var windows: [String: Window] = [:]

    /// Counts one event for `key` at `now` and returns the count in its window (1 for the first).
    func hit(_ key: String, now: Double, window: Double) -> Int {
        lock.withLock {
            if windows.count > 200_000 { windows = windows.filter { now - $0.value.start < window } }
            var w = windows[key] ?? Window(start: now, count: 0)
            if now - w.start >= window { w = Window(start: now, count: 0) }
            w.count += 1
            windows[key] = w
            return w.count
        }
    }
}
