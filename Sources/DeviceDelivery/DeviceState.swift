import APNsCore
import Foundation

/// One device token's state in the device model: whether the device is online, its next opportunistic wake,
/// the pushes APNs holds for it (waiting for a wake, or the one stored while it is offline), and its Live
/// Activity's budgets and end. Events arrive in recorded time; ``settle(until:_:_:)`` plays the device's own
/// events (deliveries, reconnects) up to a time, in order.
struct DeviceState {
    /// A push accepted and not yet shown, dropped or replaced.
    struct Held {
        let id: Int
        let push: DeviceDeliveryPush
        /// When it reaches the device (if the device is online then).
        let deliverAt: Int64
    }

    private var rng: SplitMix64
    private let intermittent: Bool
    private var online = true
    /// When the current online or offline period ends (intermittent devices).
    private var periodEnd = Int64.max
    private var nextWake: Int64?
    /// By `deliverAt`, then arrival.
    private var held: [Held] = []
    private var stored: Held?
    private var activityBudget: RefillBudget
    private var startBudget: RefillBudget
    private var activityEndedAt: Int64?
    /// The latest intended send taken.
    private var lastMillis = Int64.min

    init(token: String, firstMillis: Int64, parameters p: DeviceDeliveryParameters) {
        var rng = SplitMix64(seed: SplitMix64.mix(FNV1a.hash(token.utf8) ^ p.seed))
        intermittent = p.offlineShare > 0 && rng.unit() < p.offlineShare
        self.rng = rng
        activityBudget = p.frequentUpdates
            ? RefillBudget(perHour: p.frequentBudgetPerHour, burst: p.frequentBudgetBurst)
            : RefillBudget(perHour: p.activityBudgetPerHour, burst: p.activityBudgetBurst)
        startBudget = RefillBudget(perHour: p.pushToStartPerHour, burst: p.pushToStartBurst)
        if intermittent { startPeriods(at: firstMillis, p) }
    }

    /// Whether anything is still held for the device.
    var isIdle: Bool { held.isEmpty && stored == nil }

    // MARK: Arrival

    /// Takes a push APNs accepted at its `atMillis` (pushes come in recorded order).
    mutating func receive(_ push: DeviceDeliveryPush, id: Int, _ p: DeviceDeliveryParameters, _ sink: (Int, DeviceDeliveryOutcome) -> Void) {
        var push = push
        if push.atMillis < lastMillis { push.atMillis = lastMillis }
        lastMillis = push.atMillis
        let t = push.atMillis
        settle(until: t, p, sink)
        var budgetDelay: Int64 = 0
        if push.pushType == .liveactivity {
            if push.activityEvent != .start, let ended = activityEndedAt, ended <= t { return sink(id, .dropped(.activityEnded)) }
            if push.drawsActivityBudget || push.activityEvent == .start {
                let delayed = p.throttle == .delay
                let taken = push.activityEvent == .start
                    ? startBudget.take(at: t, reserve: delayed) : activityBudget.take(at: t, reserve: delayed)
                guard let delay = taken else { return sink(id, .throttled) }
                budgetDelay = delay
            }
        }
        if let key = push.collapseID { replaceCollapsed(key, sink) }
        insert(Held(id: id, push: push, deliverAt: deliveryTime(push, budgetDelay: budgetDelay, p)))
        settle(until: t, p, sink)
    }

    private mutating func deliveryTime(_ push: DeviceDeliveryPush, budgetDelay: Int64, _ p: DeviceDeliveryParameters) -> Int64 {
        let t = push.atMillis
        switch push.priority {
        case .immediate: return t + budgetDelay
        case .powerAware: return wake(atOrAfter: t, p)
        case .powerFirst: return wake(atOrAfter: t + Int64(p.powerFirstDeferralSeconds * 1000), p)
        }
    }

    private mutating func replaceCollapsed(_ key: String, _ sink: (Int, DeviceDeliveryOutcome) -> Void) {
        held.removeAll { h in
            guard h.push.collapseID == key else { return false }
            sink(h.id, .replaced(.collapse))
            return true
        }
        if let s = stored, s.push.collapseID == key {
            sink(s.id, .replaced(.collapse))
            stored = nil
        }
    }

    private mutating func insert(_ h: Held) {
        let at = held.firstIndex { $0.deliverAt > h.deliverAt } ?? held.endIndex
        held.insert(h, at: at)
    }

    // MARK: The device's own events

    /// Plays deliveries and reconnects up to and including `limit`, in time order.
    mutating func settle(until limit: Int64, _ p: DeviceDeliveryParameters, _ sink: (Int, DeviceDeliveryOutcome) -> Void) {
        while true {
            let reconnect = stored != nil && !online ? periodEnd : Int64.max
            let delivery = held.first?.deliverAt ?? Int64.max
            let next = min(reconnect, delivery)
            guard next <= limit, next != Int64.max else { return }
            advancePeriods(to: next, p)
            if delivery <= reconnect {
                arrive(held.removeFirst(), at: next, p, sink)
            } else if let s = stored, online {
                stored = nil
                show(s, at: next, p, sink)
            }
        }
    }

    /// A held push reaches the device's side at `millis`: shown if it is online, else stored (or not).
    private mutating func arrive(_ h: Held, at millis: Int64, _ p: DeviceDeliveryParameters, _ sink: (Int, DeviceDeliveryOutcome) -> Void) {
        guard online else {
            if h.push.expiration == .immediately { return sink(h.id, .dropped(.notStored)) }
            if let old = stored { sink(old.id, .replaced(.newerStored)) }
            stored = h
            return
        }
        show(h, at: millis, p, sink)
        // A priority-10 delivery wakes the device: what waits for a wake comes with it.
        guard h.push.priority == .immediate else { return }
        let woken = held.filter { $0.push.priority != .immediate || $0.deliverAt <= millis }
        guard !woken.isEmpty else { return }
        held.removeAll { $0.push.priority != .immediate || $0.deliverAt <= millis }
        for w in woken { show(w, at: millis, p, sink) }
    }

    private mutating func show(_ h: Held, at millis: Int64, _ p: DeviceDeliveryParameters, _ sink: (Int, DeviceDeliveryOutcome) -> Void) {
        let push = h.push
        if expired(push, at: millis, p) { return sink(h.id, .dropped(.expired)) }
        if push.pushType == .liveactivity, push.activityEvent != .start {
            if let ended = activityEndedAt, ended <= millis { return sink(h.id, .dropped(.activityEnded)) }
            if push.activityEvent == .end { activityEndedAt = millis }
        }
        let stale = push.staleAtMillis.map { millis > $0 } ?? false
        sink(h.id, .displayed(afterMillis: millis - push.atMillis + push.heldMillis, stale: stale))
    }

    private func expired(_ push: DeviceDeliveryPush, at millis: Int64, _ p: DeviceDeliveryParameters) -> Bool {
        switch push.expiration {
        case .immediately: return false
        case let .at(limit): return millis > limit
        case .storagePolicy: return Double(millis - push.atMillis) > p.storageSeconds * 1000
        }
    }

    // MARK: Draws

    private mutating func draw(meanSeconds: Double) -> Int64 {
        Int64(max(1, (-meanSeconds * 1000 * log(1 - rng.unit())).rounded()))
    }

    /// The first opportunistic wake at or after `millis` (wakes are a Poisson process, so a wake drawn from
    /// any moment on is as good as one drawn from the last).
    private mutating func wake(atOrAfter millis: Int64, _ p: DeviceDeliveryParameters) -> Int64 {
        if let w = nextWake, w >= millis { return w }
        let w = millis + draw(meanSeconds: p.wakeIntervalSeconds)
        nextWake = w
        return w
    }

    private mutating func startPeriods(at millis: Int64, _ p: DeviceDeliveryParameters) {
        online = rng.unit() < p.onlineSeconds / (p.onlineSeconds + p.offlineSeconds)
        periodEnd = millis + draw(meanSeconds: online ? p.onlineSeconds : p.offlineSeconds)
    }

    private mutating func advancePeriods(to millis: Int64, _ p: DeviceDeliveryParameters) {
        guard intermittent else { return }
        // After a long quiet stretch, start afresh: the periods are memoryless.
        if Double(millis - periodEnd) > 1_000 * (p.onlineSeconds + p.offlineSeconds) * 1000 { startPeriods(at: millis, p) }
        while periodEnd <= millis {
            online.toggle()
            periodEnd += draw(meanSeconds: online ? p.onlineSeconds : p.offlineSeconds)
        }
    }
}
