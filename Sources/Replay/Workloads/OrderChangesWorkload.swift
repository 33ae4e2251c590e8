import APNsCore

/// The order-changes workload (the Order Manager app): devices register `{device_id, push_token,
/// store_ids}` — an upsert by `device_id`, so a new token replaces the old one for good — and an order
/// change at store X pushes a Live Activity update with the store's counts to every device following X.
///
/// Events: `device.register` {device_id, push_token, store_ids}, `order.change` {store_id, totalOrders,
/// lateOrders, totalItems, event? ("update" | "end"), priority? (5 | 10)}, `activity.end` {device_id}
/// (ends that device's activity with its last counts). After an `end` the device's token is not used
/// again, until the device registers a new one.
/// `aps.timestamp` strictly increases per token even when recorded times collide. An order change at a
/// store nobody follows is one planned push not sent (`no_recipients`).
public final class OrderChangesWorkload: WorkloadRules {
    /// The slots an order-changes template may use.
    public enum Field: String, CaseIterable {
        case timestamp, event, store_id, device_id
        case totalOrders, lateOrders, totalItems, lastUpdated
    }

    struct Counts { var totalOrders = 0, lateOrders = 0, totalItems = 0, lastUpdated = 0, store = 0 }

    private var slots: TemplateSlots<Field>
    private let priority: Priority
    private var directory = DeviceDirectory<Int>()
    private var timestamps = MonotonicTimestamps()
    /// What each device was last sent, for `activity.end`.
    private var lastCounts: [String: Counts] = [:]

    /// The fan-out of the current event, sent one push per `next(into:)`.
    private var pending: [String] = []
    private var pendingIndex = 0
    private var pendingCounts = Counts()
    private var pendingEvent = "update"
    private var pendingPriority = Priority.immediate
    private var pendingAt: Int64 = 0
    /// An event that planned one push nobody can receive.
    private var notSent = SinglePlan()

    /// - Parameter priority: `apns-priority` of events without one of their own.
    public init(template: PayloadTemplate, templateSource: String, priority: Priority) throws {
        slots = try TemplateSlots(template, source: templateSource, workload: "order-changes")
        self.priority = priority
    }

    /// Tokens replaced by a newer registration (never pushed to again).
    public var retiredTokens: Int { directory.retiredTokens }

    public func nextPlanned(into push: inout OutgoingPush) -> PullResult? {
        if let planned = notSent.take(into: &push, render: { _ in }) { return planned }
        guard pendingIndex < pending.count else { return nil }
        let deviceID = pending[pendingIndex]
        pendingIndex += 1
        guard let device = directory.device(deviceID) else {
            // Planned for a device that is gone: counted, never dropped silently.
            push.priority = pendingPriority
            push.intendedNanos = 0
            return .notSent(.unknownTarget)
        }
        fill(&push, deviceID: deviceID, token: device.token)
        return .push
    }

    /// Applies one event; a push-producing event leaves its fan-out in `pending` and returns its size.
    public func apply(_ record: StreamRecord) throws -> Int {
        let (kind, at, fields, line) = (record.kind, record.at, record.fields, record.line)
        switch kind {
        case "device.register":
            let deviceID = try fields.string("device_id")
            let token = try fields.string("push_token")
            let stores = try fields.intArray("store_ids")
            if let old = directory.device(deviceID), old.token != token { timestamps.forget(old.token) }
            directory.upsert(deviceID: deviceID, token: token, groups: stores)
            return 0

        case "order.change":
            let store = try fields.int("store_id")
            var counts = Counts()
            counts.store = store
            counts.totalOrders = try fields.int("totalOrders")
            counts.lateOrders = try fields.int("lateOrders")
            counts.totalItems = try fields.int("totalItems")
            counts.lastUpdated = Int(at / 1000)
            let event = try fields.optionalString("event") ?? "update"
            guard event == "update" || event == "end" else {
                throw StreamLineError(line: line, cause: .badValue(field: "event", why: "'\(event)' is not update or end"))
            }
            let eventPriority = try self.eventPriority(fields, line: line)
            let followers = directory.followers(of: store)
            guard !followers.isEmpty else {
                notSent.state = .notSent(.noRecipients, eventPriority)
                return 1
            }
            start(followers, counts: counts, event: event, priority: eventPriority, at: at)
            return followers.count

        case "activity.end":
            let deviceID = try fields.string("device_id")
            let eventPriority = try self.eventPriority(fields, line: line)
            guard directory.device(deviceID) != nil else {
                notSent.state = .notSent(.unknownTarget, eventPriority)
                return 1
            }
            var counts = lastCounts[deviceID] ?? Counts()
            counts.lastUpdated = Int(at / 1000)
            start([deviceID], counts: counts, event: "end", priority: eventPriority, at: at)
            return 1

        default:
            throw StreamLineError(line: line, cause: .unknownKind(kind))
        }
    }

    private func eventPriority(_ fields: FlatJSONObject, line: Int) throws -> Priority {
        guard let p = try fields.optionalInt("priority") else { return priority }
        guard p == 5 || p == 10 else {
            throw StreamLineError(line: line, cause: .badValue(field: "priority", why: "\(p) is not 5 or 10"))
        }
        return Priority(rawValue: p)!
    }

    private func start(_ devices: [String], counts: Counts, event: String, priority: Priority, at: Int64) {
        pending = devices
        pendingIndex = 0
        pendingCounts = counts
        pendingEvent = event
        pendingPriority = priority
        pendingAt = at
    }

    private func fill(_ push: inout OutgoingPush, deviceID: String, token: String) {
        let c = pendingCounts
        slots.set(.timestamp, .integer(timestamps.next(for: token, recordedSeconds: Int(pendingAt / 1000))))
        slots.set(.event, .string(pendingEvent))
        slots.set(.store_id, .integer(c.store))
        slots.set(.device_id, .string(deviceID))
        slots.set(.totalOrders, .integer(c.totalOrders))
        slots.set(.lateOrders, .integer(c.lateOrders))
        slots.set(.totalItems, .integer(c.totalItems))
        slots.set(.lastUpdated, .integer(c.lastUpdated))
        slots.render(into: &push.body)
        push.deviceToken = token
        push.priority = pendingPriority
        push.intendedNanos = 0
        push.recordedMillis = pendingAt
        if pendingEvent == "end" {
            // The activity is over: its token is not used again.
            lastCounts.removeValue(forKey: deviceID)
            timestamps.forget(token)
            directory.remove(deviceID: deviceID)
        } else {
            lastCounts[deviceID] = c
        }
    }
}
