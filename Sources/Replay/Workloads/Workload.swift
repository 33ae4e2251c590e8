import APNsCore

/// Where a workload reports what became of each stream event. Every event read ends in exactly one
/// class: it produced pushes, it only changed state, or it was a bad line.
public protocol EventAccounting: AnyObject {
    /// An event was applied; `pushes` is how many pushes it planned (0: it only changed state).
    func eventApplied(kind: String, pushes: Int)
    /// A line could not be used, with its line number and cause.
    func badLine(_ error: StreamLineError, kind: String?)
}

/// A workload turns a recorded stream's events into pushes, one by one, as the engine asks for them.
public protocol ReplayWorkload: PushSource {
    /// Set when the profile's bad-line policy is `stop` and a bad line was met; the run stops there.
    var stopError: StreamLineError? { get }
    /// Set when reading the stream failed (I/O); the run stops and fails with it.
    var readFailure: Error? { get }
}

/// The workloads a profile can name.
public enum Workloads {
    public static let names = ["leave-requests", "order-changes", "cdbl-leave", "ksr-cranes", "everday-approvals"]

    /// Builds the workload a profile names, reading its stream and checking its template's slots.
    public static func make(
        profile: RunProfile, template: PayloadTemplate, accounting: EventAccounting, outcomes: OutcomeSink
    ) throws -> ReplayWorkload {
        switch profile.workload {
        case "leave-requests":
            return try LeaveRequestWorkload(
                reader: EventStreamReader(path: profile.streamPath), template: template, templateSource: profile.templatePath,
                priority: profile.priority, badLines: profile.badLines, accounting: accounting, outcomes: outcomes)
        case "order-changes":
            return try OrderChangesWorkload(
                reader: EventStreamReader(path: profile.streamPath), template: template, templateSource: profile.templatePath,
                priority: profile.priority, badLines: profile.badLines, accounting: accounting, outcomes: outcomes)
        case "cdbl-leave", "ksr-cranes":
            return try NotifyWorkload(
                workload: profile.workload, reader: EventStreamReader(path: profile.streamPath), template: template,
                templateSource: profile.templatePath, priority: profile.priority, badLines: profile.badLines,
                accounting: accounting, outcomes: outcomes)
        case "everday-approvals":
            return try EverdayApprovalsWorkload(
                reader: EventStreamReader(path: profile.streamPath), template: template, templateSource: profile.templatePath,
                priority: profile.priority, badLines: profile.badLines, accounting: accounting, outcomes: outcomes)
        default:
            throw WorkloadError.unknownWorkload(profile.workload)
        }
    }
}

public enum WorkloadError: Error, CustomStringConvertible, Equatable {
    case unknownWorkload(String)
    case unknownSlot(template: String, slot: String, workload: String, fields: [String])

    public var description: String {
        switch self {
        case let .unknownWorkload(w): return "unknown workload '\(w)' (known: \(Workloads.names.joined(separator: ", ")))"
        case let .unknownSlot(t, s, w, f):
            return "template \(t): slot '\(s)' is not a field of workload \(w) (fields: \(f.joined(separator: ", ")))"
        }
    }
}
