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
///
/// Broadcast delivery (``channels`` set): `device.register` may carry `input_push_channel` (a store id):
/// the activity subscribed to that store's broadcast channel when it started. An order change is then one
/// broadcast to its store's channel (`reach`: the store's subscribers), not one push per follower; a store
/// with no subscriber is one push not sent (`no_recipients`), a store whose channel could not be created
/// one not sent (`channel_limit`). Followers of a store that are not subscribed to its channel are not
/// reached by the broadcast (``followersNotSubscribed``). `activity.end` stays a push to that device.
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

    /// Broadcast delivery: each store's channel; nil: device delivery.
    public var channels: BroadcastChannels?
    /// Store → devices whose activity subscribed to its channel (`input_push_channel`), and the reverse.
    private var subscribers: [Int: Set<String>] = [:]
    private var subscription: [String: Int] = [:]
    /// The broadcast the current order change planned.
    private var pendingBroadcast: (channel: BroadcastChannels.Channel, reach: Int)?
    /// Broadcast delivery: followers of a changed store that were not subscribed to its channel, summed over
    /// the order changes broadcast (device delivery would have pushed to them).
    public private(set) var followersNotSubscribed = 0

    /// - Parameters:
    ///   - priority: `apns-priority` of events without one of their own.
    ///   - channels: broadcast delivery's channels (``channels``); nil: device delivery.
    public init(template: PayloadTemplate, templateSource: String, priority: Priority, channels: BroadcastChannels? = nil) throws {
        slots = try TemplateSlots(template, source: templateSource, workload: "order-changes")
        self.priority = priority
        self.channels = channels
    }

    /// Tokens replaced by a newer registration (never pushed to again).
    public var retiredTokens: Int { directory.retiredTokens }

    public func nextPlanned(into push: inout OutgoingPush) -> PullResult? {
        if let planned = notSent.take(into: &push, render: { _ in }) { return planned }
        if let (channel, reach) = pendingBroadcast {
            pendingBroadcast = nil
            fill(&push, deviceID: "", token: channel.id)
            push.channel = channel.index
            push.reach = Int32(clamping: reach)
            return .push
        }
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
            subscribe(deviceID, to: try fields.optionalInt("input_push_channel"))
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
            if let channels {
                return broadcast(store, channels: channels, followers: followers, counts: counts, event: event, priority: eventPriority, at: at)
            }
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

    /// One broadcast to `store`'s channel, or one push not sent when nobody subscribed or it has no channel.
    private func broadcast(_ store: Int, channels: BroadcastChannels, followers: [String], counts: Counts, event: String,
                           priority: Priority, at: Int64) -> Int {
        let subscribed = subscribers[store] ?? []
        followersNotSubscribed += followers.reduce(0) { $0 + (subscribed.contains($1) ? 0 : 1) }
        guard !subscribed.isEmpty else {
            notSent.state = .notSent(.noRecipients, priority)
            return 1
        }
        guard let channel = channels.byStore[store] else {
            notSent.state = .notSent(channels.refused.contains(store) ? .channelLimit : .unknownTarget, priority)
            return 1
        }
        start([], counts: counts, event: event, priority: priority, at: at)
        pendingBroadcast = (channel, subscribed.count)
        if event == "end" {
            // The store's activities are over: nobody is subscribed any more.
            for device in subscribed { subscription.removeValue(forKey: device) }
            subscribers.removeValue(forKey: store)
        }
        return 1
    }

    /// The device's activity subscribes to `store`'s channel (nil: to none), replacing an earlier subscription.
    private func subscribe(_ deviceID: String, to store: Int?) {
        if let old = subscription[deviceID], old != store {
            subscribers[old]?.remove(deviceID)
            subscription.removeValue(forKey: deviceID)
        }
        guard let store else { return }
        subscription[deviceID] = store
        subscribers[store, default: []].insert(deviceID)
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
            subscribe(deviceID, to: nil)
        } else {
            lastCounts[deviceID] = c
        }
    }
}
