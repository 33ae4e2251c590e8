import Foundation

/// A setting's value read from text, one reader for each kind of value: the command line's flags,
/// `sweep --vary KEY=V` and the profile's keys all read through these, so a value means the same and is
/// refused with the same words wherever it is written. Each throws a ``RunConfigError`` naming the setting;
/// the caller says where the text came from (the flag, or the profile's key and line).
public enum SettingText {
    /// `1`, `5` or `10`: apns-priority.
    public static func priority(_ key: ConfigKey, _ text: String) throws -> Priority {
        guard let p = Int(text.trimmingCharacters(in: .whitespaces)).flatMap(Priority.init(rawValue:)) else {
            throw RunConfigError(key, "must be 1, 5 or 10, found '\(text)'")
        }
        return p
    }

    /// A priority override: `5`, or `5:liveactivity` (``PriorityOverride``).
    public static func priorityOverride(_ key: ConfigKey, _ text: String) throws -> PriorityOverride {
        do { return try PriorityOverride(text: text) } catch { throw RunConfigError(key, "must be PRIORITY or PRIORITY:SCOPE: \(error)") }
    }

    /// A window of recorded time: a duration like `250ms` or `1s` (``DurationText``), or `0`, which turns the
    /// setting off.
    public static func window(_ key: ConfigKey, _ text: String) throws -> Duration {
        try duration(key, text, zeroTurnsOff: true)
    }

    /// A duration (``DurationText``: `250ms`, `10s`, `1h30m`, the unit written), the one reader of every duration
    /// setting's flag, profile key and `--vary` value. With `zeroTurnsOff`, `0` is read as zero (the setting off), as
    /// it is with `zero`, what zero means; with `wholeSeconds`, the duration must be whole seconds.
    public static func duration(_ key: ConfigKey, _ text: String, zeroTurnsOff: Bool = false, zero: String? = nil,
                                wholeSeconds: Bool = false) throws -> Duration {
        let zero = zero ?? (zeroTurnsOff ? "0 turns it off" : nil)
        let off = zero.map { " (\($0))" } ?? ""
        let t = text.trimmingCharacters(in: .whitespaces)
        if zero != nil, t == "0" || DurationText.parse(t) == .zero { return .zero }
        guard let d = DurationText.setting(text) else {
            let like = wholeSeconds ? "10s or 1m" : "250ms, 10s or 1h30m"
            throw RunConfigError(key, "must be a duration like \(like), at most a year\(off): \(DurationText.refusal(text))")
        }
        if wholeSeconds, d.millis % 1000 != 0 { throw RunConfigError(key, "must be whole seconds, like 10s or 1m\(off), found '\(text)'") }
        return d
    }

    /// One of the values an enumeration spells: `device` or `broadcast`.
    public static func choice<T: RawRepresentable & CaseIterable>(_ key: ConfigKey, _ text: String) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: text) else {
            throw RunConfigError(key, "must be \(spelled(T.allCases.map(\.rawValue))), found '\(text)'")
        }
        return value
    }

    /// A whole number (its range is the setting's, checked with the configuration).
    public static func wholeNumber(_ key: ConfigKey, _ text: String) throws -> Int {
        guard let n = Int(text.trimmingCharacters(in: .whitespaces)) else { throw RunConfigError(key, "must be a whole number, found '\(text)'") }
        return n
    }

    /// A number (its range is the setting's, checked with the configuration).
    public static func number(_ key: ConfigKey, _ text: String) throws -> Double {
        guard let n = Double(text.trimmingCharacters(in: .whitespaces)), n.isFinite else { throw RunConfigError(key, "must be a number, found '\(text)'") }
        return n
    }

    /// `a`, `a or b`, `a, b or c`.
    static func spelled(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
