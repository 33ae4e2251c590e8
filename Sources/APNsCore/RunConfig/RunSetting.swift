import Foundation

/// One run setting as the vocabulary states it: the profile's key, where report.json's `configuration` keeps it, its
/// default, its range and rule, and how the command line's value is laid over the profile's. Its flag's name and what
/// it does, in words (its help), are the command line's (`RunOptions`' `RunSettingFlags` and `RunSettingHelp`).
///
/// ``RunSettings/all`` is the one list of them. The profile reader takes its known keys from it, the
/// command line the settings it has flags for, `sweep --vary` the settings it can vary, and ``ProfileWriter`` the
/// profile text a report's configuration is written back as. An error names the setting's key (``RunConfigError``);
/// the reader the user wrote names it as they wrote it (the profile's key and line, or the flag).
public struct RunSetting: Sendable {
    /// The name errors use for the setting (``ConfigKey/profileKey``).
    public let key: ConfigKey
    /// The profile's key: top level (`connections`) or under `simulator:` (`simulator.fast`); nil when
    /// only the command line sets it.
    public internal(set) var profileKey: String?
    /// Why only the profile sets it (the command line has no flag for it), when that is so.
    public let profileOnly: String?
    /// Where report.json's `configuration` keeps the value: a dotted key path.
    public let reportPath: String
    /// The flag's value name in `--help`, e.g. `N` or `DURATION`.
    public let valueName: String?
    /// The value when neither the profile nor a flag gives one.
    public let defaultValue: String
    /// The range or form the value must have, as `--help` and the docs state it; for a setting with a
    /// ``range``, the range's text and what follows it.
    public let rule: String
    /// Whether `sweep --vary KEY=V1,V2` can vary it.
    public let varies: Bool
    /// How the profile reader reads a one-value key and sets it; nil for the keys it reads itself
    /// (the workload, the schedule, the SLO's classes, the simulator section).
    public internal(set) var load: ProfileRead?
    /// The value as profile text (a YAML scalar, or JSON for a collection), nil when `config` leaves it unset.
    public internal(set) var profileValue: @Sendable (RunConfig) -> String?
    /// Lays the command line's value (``RunConfigOverrides``) over the configuration; true when the
    /// command line gave this setting, so that an error about it names the flag. Nil for profile-only settings: a setting
    /// has a flag exactly when it has this.
    public internal(set) var overlay: (@Sendable (inout RunConfig, RunConfigOverrides) -> Bool)?

    /// How `sweep --vary KEY=V` turns one value into the command line's value for this setting; nil for
    /// the settings that cannot be varied. A value that is not one throws a ``RunConfigError``.
    public internal(set) var varyValue: (@Sendable (String, inout RunConfigOverrides) throws -> Void)?

    /// The profile key this setting had when keys named their unit (`push_timeout_ms`), and that unit: still read, a
    /// number of `unit`s, with a notice naming ``profileKey``.
    public internal(set) var formerKey: (name: String, unit: Duration)? = nil

    /// This setting, whose profile key was `name`, a number of `unit`s.
    func formerly(_ name: String, in unit: Duration) -> RunSetting {
        var s = self
        s.formerKey = (name, unit)
        return s
    }

    /// The numbers the value must lie between, both ends included; the configuration's check reads them
    /// here (``RunConfig/validate(cores:)``) and ``rule`` begins with them. Nil for a setting without one.
    public var range: SettingRange? = nil

    /// A value for the flag other than the default, as a user writes it: what the tests give every flag
    /// to see it reach the configuration. Nil when the flag takes no value or ``range`` gives one (its upper end).
    public var example: String? = nil

    /// The flag's example value: ``example``, else the upper end of ``range``; nil for a flag without a value.
    public var exampleValue: String? {
        guard valueName != nil else { return nil }
        return example ?? range.map { RunSettings.number($0.upper) }
    }

    /// This setting, with how `sweep --vary` reads one of its values.
    func varied(_ read: @escaping @Sendable (String, inout RunConfigOverrides) throws -> Void) -> RunSetting {
        var s = self
        s.varyValue = read
        return s
    }

    /// This setting, with ``example`` for its flag.
    func withExample(_ text: String?) -> RunSetting {
        var s = self
        s.example = text
        return s
    }

    /// This setting, with how its flag's value is laid over the profile's.
    func overlay(_ apply: @escaping @Sendable (inout RunConfig, RunConfigOverrides) -> Bool) -> RunSetting {
        var s = self
        s.overlay = apply
        return s
    }

    /// This setting, with the command line's value at `given`, when there is one, laid over the configuration's `slot`.
    func overlay<V>(_ given: KeyPath<RunConfigOverrides, V?> & Sendable, onto slot: WritableKeyPath<RunConfig, V> & Sendable) -> RunSetting {
        overlay { c, o in
            guard let v = o[keyPath: given] else { return false }
            c[keyPath: slot] = v
            return true
        }
    }

    /// This setting, with the command line's value at `given`, when there is one, laid over the configuration's `slot`.
    func overlay<V>(_ given: KeyPath<RunConfigOverrides, V?> & Sendable, onto slot: WritableKeyPath<RunConfig, V?> & Sendable) -> RunSetting {
        overlay { c, o in
            guard let v = o[keyPath: given] else { return false }
            c[keyPath: slot] = v
            return true
        }
    }

    /// This setting, its value kept at `slot`: read from the profile and written back as `form` says.
    func kept<V>(_ slot: WritableKeyPath<RunConfig, V?> & Sendable, _ form: SettingForm<V>) -> RunSetting {
        stored(form, get: { $0[keyPath: slot] }, set: { $0[keyPath: slot] = $1 })
    }

    /// This setting, its value kept at `slot`, which always holds one: read from the profile and written back as `form` says.
    func kept<V>(_ slot: WritableKeyPath<RunConfig, V> & Sendable, _ form: SettingForm<V>) -> RunSetting {
        stored(form, get: { $0[keyPath: slot] }, set: { $0[keyPath: slot] = $1 })
    }

    /// This setting, its value kept at `slot` as `form` says, with a flag whose value the command line keeps at
    /// `given`.
    func kept<V>(_ slot: WritableKeyPath<RunConfig, V?> & Sendable, _ form: SettingForm<V>,
                 flag given: WritableKeyPath<RunConfigOverrides, V?> & Sendable) -> RunSetting {
        kept(slot, form).overlay(given, onto: slot).withFlag(given, form)
    }

    /// This setting, its value kept at `slot` (which always holds one) as `form` says, with a flag whose value the
    /// command line keeps at `given`.
    func kept<V>(_ slot: WritableKeyPath<RunConfig, V> & Sendable, _ form: SettingForm<V>,
                 flag given: WritableKeyPath<RunConfigOverrides, V?> & Sendable) -> RunSetting {
        kept(slot, form).overlay(given, onto: slot).withFlag(given, form)
    }

    private func stored<V>(_ form: SettingForm<V>, get: @escaping @Sendable (RunConfig) -> V?,
                           set: @escaping @Sendable (inout RunConfig, V) -> Void) -> RunSetting {
        var s = self
        s.load = form.read(key, set)
        s.profileValue = { get($0).map(form.text) }
        return s
    }

    /// This setting, when it varies, with `sweep --vary` reading a value into `given` as `form` reads it.
    private func withFlag<V>(_ given: WritableKeyPath<RunConfigOverrides, V?> & Sendable, _ form: SettingForm<V>) -> RunSetting {
        guard varies else { return self }
        guard let vary = form.vary else { preconditionFailure("\(key) varies, and its form reads no --vary value") }
        let key = self.key
        return varied { text, o in o[keyPath: given] = try vary(key, text) }
    }

    /// This setting, with its profile key in a section of the profile (`simulator.model`), which the section's
    /// own reader reads.
    func inSection(_ profileKey: String) -> RunSetting {
        var s = self
        s.profileKey = profileKey
        s.load = nil
        return s
    }
}
