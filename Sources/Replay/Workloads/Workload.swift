import APNsCore

/// The workloads a profile can name.
public enum Workloads {
    public static let names = ["leave-requests", "order-changes", "cdbl-leave", "ksr-cranes", "everday-approvals"]

    /// The rules a workload name stands for, with its template's slots checked.
    /// - Parameter channels: broadcast delivery's channels, for the workload that broadcasts (order-changes);
    ///   nil: device delivery.
    public static func rules(named name: String, template: PayloadTemplate, templateSource: String, priority: Priority,
                             channels: BroadcastChannels? = nil) throws -> WorkloadRules {
        switch name {
        case "leave-requests":
            return try LeaveRequestWorkload(template: template, templateSource: templateSource, priority: priority)
        case "order-changes":
            return try OrderChangesWorkload(template: template, templateSource: templateSource, priority: priority, channels: channels)
        case "cdbl-leave", "ksr-cranes":
            return try NotifyWorkload(workload: name, template: template, templateSource: templateSource, priority: priority)
        case "everday-approvals":
            return try EverdayApprovalsWorkload(template: template, templateSource: templateSource, priority: priority)
        default:
            throw WorkloadError.unknownWorkload(name)
        }
    }

    /// The configured workload as the run's push source: one recording's ``WorkloadDriver``, or a mix's
    /// ``MixedWorkload`` over its parts.
    /// - Parameters:
    ///   - templates: the payload templates by part (``RunConfig/Workload/parts``).
    ///   - channels: broadcast delivery's channels (order-changes); nil: device delivery.
    ///   - timeShiftMillis: added to every recorded time (a looped recording's later passes).
    public static func source(_ workload: RunConfig.Workload, priority: Priority, templates: [PayloadTemplate],
                              channels: BroadcastChannels? = nil, timeShiftMillis: Int64 = 0) throws -> ReplaySource {
        guard let mix = workload.mix else {
            let d = try driver(workload, priority: priority, template: templates[0], channels: channels)
            d.timeShiftMillis = timeShiftMillis
            return d
        }
        precondition(channels == nil, "broadcast delivery is one order-changes recording")
        return MixedWorkload(parts: try mix.enumerated().map { i, part in
            let d = try driver(part, priority: priority, template: templates[i])
            d.kind = Int32(i)
            d.timeShiftMillis = timeShiftMillis
            return d
        })
    }

    /// The run's push source: the configured workload, replayed pass after pass when the schedule says to
    /// loop the recording (``LoopingReplay``).
    public static func replay(_ config: RunConfig, templates: [PayloadTemplate], channels: BroadcastChannels? = nil) throws -> ReplaySource {
        let first = try source(config.workload, priority: config.payload.priority, templates: templates, channels: channels)
        guard config.schedule.loopRecording == true else { return first }
        return LoopingReplay(first: first) { shift in
            try source(config.workload, priority: config.payload.priority, templates: templates, channels: channels, timeShiftMillis: shift)
        }
    }

    /// The configured workload over its recorded stream, as the engine's push source.
    /// - Parameter channels: broadcast delivery's channels (order-changes); nil: device delivery.
    public static func driver(_ workload: RunConfig.Workload, priority: Priority, template: PayloadTemplate,
                              channels: BroadcastChannels? = nil) throws -> WorkloadDriver {
        let rules = try rules(named: workload.name, template: template, templateSource: workload.template, priority: priority, channels: channels)
        return WorkloadDriver(reader: try EventStreamReader(path: workload.stream), rules: rules, badLines: workload.badLines, priority: priority)
    }
}

public enum WorkloadError: Error, CustomStringConvertible, Equatable {
    case unknownWorkload(String)
    case unknownSlot(template: String, slot: String, workload: String, fields: [String])
    /// A slot's format does not fit its field: `problem` follows the slot's name.
    case slotFormat(template: String, slot: String, problem: String)

    public var description: String {
        switch self {
        case let .unknownWorkload(w): return "unknown workload '\(w)' (known: \(Workloads.names.joined(separator: ", ")))"
        case let .unknownSlot(t, s, w, f):
            return "template \(t): slot '\(s)' is not a field of workload \(w) (fields: \(f.joined(separator: ", ")))"
        case let .slotFormat(t, s, problem):
            return "template \(t): slot '\(s)' \(problem)"
        }
    }
}
