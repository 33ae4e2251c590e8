import APNsCore
import APNsEngine
import Foundation

/// A run's id: the same in every shard of one run (`merge` refuses shards of different runs), and the
/// `run_id` label of the live metrics.
public enum RunIdentity {
    /// Letters, digits, `.`, `_` and `-`, starting with a letter or digit, at most 128 characters: safe
    /// in a file name, a Kubernetes label value and a metrics label.
    public static func check(_ id: String) -> String? {
        let allowed = id.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x2D
        }
        guard !id.isEmpty, id.utf8.count <= 128, allowed, let first = id.utf8.first, first != 0x2E, first != 0x5F, first != 0x2D else {
            return "must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit, found '\(id)'"
        }
        return nil
    }

    /// `run-20261123T050000Z-1a2b3c`: the start's UTC time and 24 random bits.
    public static func fresh(now: Date = Date()) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return "run-\(f.string(from: now))-\(String(UInt32.random(in: 0..<(1 << 24)), radix: 16))"
    }
}

/// `--start-at`: every shard waits for one wall-clock time, so shards started seconds apart by a scheduler
/// send together.
public enum StartBarrier {
    /// An ISO-8601 time in UTC or with an offset (`2026-11-23T10:00:00Z`, fractional seconds allowed).
    public static func parse(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let d = plain.date(from: text) { return d }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// Sleeps until `time` (at once if it passed, saying by how much); a requested stop ends the wait.
    static func wait(until time: Date, stop: RunStop, shard: APNsCore.RunConfig.Shard?, log: (String) -> Void) {
        let stamp = time.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        let who = shard.map { " (shard \($0))" } ?? ""
        let ahead = time.timeIntervalSinceNow
        guard ahead > 0 else {
            log("apnsbench: --start-at \(stamp) passed \(String(format: "%.1f", -ahead)) s ago; starting now\(who)")
            return
        }
        log("apnsbench: waiting \(String(format: "%.1f", ahead)) s for --start-at \(stamp)\(who)")
        while !stop.isRequested {
            let left = time.timeIntervalSinceNow
            if left <= 0 { return }
            usleep(UInt32(min(left, 0.1) * 1_000_000))
        }
    }
}
