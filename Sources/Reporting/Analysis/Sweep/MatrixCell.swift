import Foundation

/// One run of a tuning matrix (`sweep --vary`) and what it did.
public struct MatrixCell: Codable, Equatable {
    public var settings: [String: String]
    public var directory: String
    public var planned: Int
    public var pushesSent: Int
    public var delivered: Int
    public var devicesReached: Int
    public var connectionsOpened: Int
    public var p50Millis: Double
    public var p99Millis: Double
    /// Priority-10 updates the device would throttle (the Live Activity budget): the device model's count when
    /// the run modelled devices, else the pipeline's; nil when not counted.
    public var budgetThrottled: Int?
    public var channelCalls: Int
    /// Live Activity updates the coalescer superseded (pushes saved), nil when the run did not coalesce.
    public var pushesSaved: Int?
    /// Staleness the coalescer added per update, recorded ms; nil when no update went through it.
    public var stalenessP50Millis: Double?
    public var stalenessP99Millis: Double?
    /// Delivered share of the pushes planned, 0 … 1; nil when none were planned.
    public var deliveredShare: Double?
    /// The in-flight window, connections × streams: the concurrency of a concurrency sweep (``USLFit``).
    public var concurrency: Int?
    /// Pushes a second: completed pushes over the seconds from the first send to the last completion.
    public var throughput: Double?
    /// Pushes the priority override reached, nil without one: how far the varied priority went.
    public var overrideReached: Int?
    /// With `priority` varied and no override: the pushes planned at the profile's priority (the varied one),
    /// the others carrying their own; nil otherwise.
    public var priorityReached: Int?
    /// On the device (when the run modelled devices): pushes throttled, replaced and shown late, and the time
    /// to device (ms of recorded time) of priority 10 and 5 at p50 and p99, by priority's rawValue.
    public var deviceThrottled: Int?
    public var deviceReplaced: Int?
    public var deviceLate: Int?
    public var timeToDeviceP50Millis: [String: Int]?
    public var timeToDeviceP99Millis: [String: Int]?
    public var label: String { settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }

    public init(settings: [String: String], directory: String, report r: RunReport) {
        self.settings = settings
        self.directory = directory
        planned = r.pushes.planned
        pushesSent = r.engine.sent
        delivered = r.pushes.delivered
        devicesReached = r.engine.devicesReached
        connectionsOpened = r.engine.connectionsOpened
        p50Millis = Double(r.latency.responseTime.p50) / 1000
        p99Millis = Double(r.latency.responseTime.p99) / 1000
        budgetThrottled = r.device.map { $0.outcomes["throttled"] ?? 0 } ?? r.liveActivityBudget?.throttled
        channelCalls = r.broadcast?.managementCallCount ?? 0
        pushesSaved = r.coalescing?.pushesSaved
        if let s = r.coalescing?.staleness, s.count > 0 {
            stalenessP50Millis = Double(s.p50)
            stalenessP99Millis = Double(s.p99)
        }
        deliveredShare = r.pushes.deliveredShare
        concurrency = r.configuration.transport.connections * r.configuration.transport.streams
        throughput = r.throughput.pushesPerSecond
        overrideReached = r.priorityOverride?.reached
        if settings["priority"] != nil, r.priorityOverride == nil { priorityReached = max(0, r.pushes.planned - (r.events.pushesAtOwnPriority ?? 0)) }
        if let d = r.device {
            deviceThrottled = d.outcomes["throttled"] ?? 0
            deviceReplaced = d.outcomes["replaced"] ?? 0
            deviceLate = d.outcomes["late"] ?? 0
            timeToDeviceP50Millis = d.timeToDevice.byPriority.mapValues(\.p50)
            timeToDeviceP99Millis = d.timeToDevice.byPriority.mapValues(\.p99)
        }
    }

    /// The columns a cell may lack (its report predates them, or the run had no such thing), each with
    /// its text: shown when any cell has a value, `-` in the cells without one.
    static var optionalColumns: [(title: String, text: (MatrixCell) -> String?)] { [
        ("delivered share", { $0.deliveredShare.map { Format.fixed($0 * 100, places: 2) + " %" } }),
        ("concurrency", { $0.concurrency.map(String.init) }),
        ("pushes/s", { $0.throughput.map { Format.fixed($0, places: 1) } }),
        ("pushes saved", { $0.pushesSaved.map(String.init) }),
        ("staleness p50 ms", { $0.stalenessP50Millis.map { Format.fixed($0, places: 1) } }),
        ("staleness p99 ms", { $0.stalenessP99Millis.map { Format.fixed($0, places: 1) } }),
        ("override reached", { $0.overrideReached.map(String.init) }),
        ("priority reached", { c in c.priorityReached.map { "\($0) of \(c.planned)" } }),
        ("device: replaced", { $0.deviceReplaced.map(String.init) }),
        ("device: late", { $0.deviceLate.map(String.init) }),
    ] + timeToDeviceColumns }

    /// Time to device at p50 and p99 for each priority, as columns.
    static var timeToDeviceColumns: [(title: String, text: (MatrixCell) -> String?)] {
        var columns: [(title: String, text: (MatrixCell) -> String?)] = []
        for p in ["10", "5", "1"] {
            columns.append(("to device p\(p) p50", { c in c.timeToDeviceP50Millis?[p].map(SummaryText.deviceTime) }))
            columns.append(("to device p\(p) p99", { c in c.timeToDeviceP99Millis?[p].map(SummaryText.deviceTime) }))
        }
        return columns
    }

    /// The optional columns that any of `cells` has.
    static func presentColumns(_ cells: [MatrixCell]) -> [(title: String, text: (MatrixCell) -> String?)] {
        optionalColumns.filter { column in cells.contains { column.text($0) != nil } }
    }

    /// The side-by-side table, and for a device/broadcast pair the ratio of pushes. The columns after
    /// `channel-API calls` (delivered share, concurrency, pushes/s, pushes saved, staleness p50 and p99)
    /// appear when any cell has them.
    public static func markdown(_ cells: [MatrixCell]) -> String {
        let extra = presentColumns(cells)
        var out = "| settings | planned | pushes sent | delivered | devices reached | connections | p50 ms | p99 ms | budget-throttled | channel-API calls |"
            + extra.map { " \($0.title) |" }.joined() + "\n"
        out += "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|" + String(repeating: "--:|", count: extra.count) + "\n"
        for c in cells {
            out += "| \(Format.cell(c.label)) | \(c.planned) | \(c.pushesSent) | \(c.delivered) | \(c.devicesReached) | \(c.connectionsOpened) | "
                + "\(Format.fixed(c.p50Millis, places: 1)) | \(Format.fixed(c.p99Millis, places: 1)) | \(c.budgetThrottled.map(String.init) ?? "-") "
                + "| \(c.channelCalls) |"
                + extra.map { " \($0.text(c) ?? "-") |" }.joined() + "\n"
        }
        // Device against broadcast, other settings equal: how many device pushes one broadcast replaced.
        for device in cells where device.settings["delivery"] == "device" {
            var others = device.settings
            others["delivery"] = "broadcast"
            if let b = cells.first(where: { $0.settings == others }), b.pushesSent > 0 {
                let rest = device.settings.filter { $0.key != "delivery" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                out += "\nDevice against broadcast\(rest.isEmpty ? "" : " (\(rest))"): \(device.pushesSent) device pushes against \(b.pushesSent) broadcasts, "
                    + "\(Format.fixed(Double(device.pushesSent) / Double(b.pushesSent), places: 1)) : 1; devices reached \(device.devicesReached) "
                    + "against \(b.devicesReached).\n"
            }
        }
        if let note = priorityNote(cells) { out += "\n" + note + "\n" }
        return out
    }

    /// With `priority` varied: how far the varied priority went, and `priority_override` when it went to fewer
    /// than half of the pushes (the others carry their own priority from the recipe); nil otherwise.
    static func priorityNote(_ cells: [MatrixCell]) -> String? {
        guard let c = cells.first(where: { $0.priorityReached != nil }), let reached = c.priorityReached else { return nil }
        var note = "The varied priority reached \(reached) of the \(c.planned) pushes planned: the others carry their own priority from the recipe"
        if reached * 2 < c.planned {
            note += "; to set every push's priority, vary priority_override instead (--vary priority_override=10,5)"
        }
        return note + "."
    }
}
