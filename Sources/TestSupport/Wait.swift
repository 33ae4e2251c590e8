import Foundation

/// Polls `condition` every millisecond until it holds or `seconds` pass; returns whether it held. Tests
/// wait this way, bounded, and fail with a message when it returns false: never an open-ended loop.
public func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() >= deadline { return false }
        usleep(1_000)
    }
    return true
}
