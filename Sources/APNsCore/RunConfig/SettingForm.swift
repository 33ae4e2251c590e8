import Foundation

/// How a run setting's value of one kind is read from a profile, written back as profile text, and read from
/// one `sweep --vary` value: one form for each kind of value, shared by the rows of ``RunSettings`` of that kind.
struct SettingForm<V: Sendable>: Sendable {
    /// The profile reader for the key, handing the value it read to `set`.
    let read: @Sendable (_ key: ConfigKey, _ set: @escaping @Sendable (inout RunConfig, V) throws -> Void) -> ProfileRead
    /// The value as profile text (a YAML scalar).
    let text: @Sendable (V) -> String
    /// One `sweep --vary` value read as the flag reads it; nil for a kind no setting varies.
    var vary: (@Sendable (ConfigKey, String) throws -> V)? = nil
}

extension SettingForm where V == Int {
    /// A whole number: `4`.
    static var whole: SettingForm {
        SettingForm(read: { _, set in .int(set) }, text: { "\($0)" }, vary: { try SettingText.wholeNumber($0, $1) })
    }
}

extension SettingForm where V == Double {
    /// A number: `0.5`, written without a fraction when it is whole.
    static var number: SettingForm { SettingForm(read: { _, set in .number(set) }, text: RunSettings.number) }
}

extension SettingForm where V == Duration {
    /// A duration (`250ms`, `10s`, `1h30m`), written in ms.
    static var duration: SettingForm { SettingForm(read: { _, set in .duration(set) }, text: { RunSettings.millis($0.millis) }) }

    /// A duration of whole seconds (`10s`, `1m`), written `10s`; with `zeroTurnsOff`, `0` turns the setting off and is
    /// written `0`.
    static func wholeSeconds(zeroTurnsOff: Bool) -> SettingForm {
        SettingForm(read: { _, set in .wholeSeconds(zeroTurnsOff: zeroTurnsOff, set) },
                    text: { zeroTurnsOff && $0 == .zero ? "0" : "\($0.millis / 1000)s" })
    }

    /// A duration in the largest unit it is a whole number of (`30s`, `50m`, `250ms`), written so.
    static var written: SettingForm { SettingForm(read: { _, set in .duration(set) }, text: DurationText.text) }

    /// A duration of whole seconds where `0` has a meaning of its own (`zero`: `0: deliver now or never`), written `3600s`.
    static func wholeSeconds(zero: String) -> SettingForm {
        parsed({ try SettingText.duration($0, $1, zero: zero, wholeSeconds: true) }) { $0 == .zero ? "0" : "\($0.millis / 1000)s" }
    }
}

extension SettingForm where V == Bool {
    /// `true` or `false`.
    static var bool: SettingForm { SettingForm(read: { _, set in .bool(set) }, text: { "\($0)" }) }
}

extension SettingForm where V == String {
    /// Text as written, kept in quotes (JSON) when written back.
    static var quoted: SettingForm { SettingForm(read: { _, set in .text(set) }, text: RunSettings.json) }
}

extension SettingForm where V == Priority {
    /// apns-priority: `1`, `5` or `10`.
    static var priority: SettingForm { parsed(SettingText.priority) { "\($0.rawValue)" } }
}

extension SettingForm where V == PriorityOverride {
    /// A priority and its scope: `5`, `5:liveactivity`.
    static var priorityOverride: SettingForm { parsed(SettingText.priorityOverride) { RunSettings.json($0.description) } }
}

extension SettingForm where V: RawRepresentable & CaseIterable, V.RawValue == String {
    /// One of an enumeration's values: `device`, `broadcast`.
    static var choice: SettingForm { parsed(SettingText.choice) { $0.rawValue } }
}

extension SettingForm {
    /// A value read from its text by `parse` (``SettingText``), in a profile and from `sweep --vary` alike.
    static func parsed(_ parse: @escaping @Sendable (ConfigKey, String) throws -> V, text: @escaping @Sendable (V) -> String) -> SettingForm {
        SettingForm(read: { key, set in .text { c, t in try set(&c, parse(key, t)) } }, text: text, vary: parse)
    }
}
