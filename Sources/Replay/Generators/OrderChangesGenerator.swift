import APNsCore

/// Writes a synthetic Order Manager recording in constant memory per event: every device starts
/// a Live Activity once during the day (`device.register`, following 1–`maxFollows` stores, its first one
/// Zipf-popular), more of them in the rushes; a share start again later with a new token (token rotation);
/// every activity ends 5–90 minutes later (`activity.end`); order changes come at Zipf-popular stores with
/// a lunch rush and a dinner peak; a share of sessions carry dead tokens (the app was deleted), listed for
/// the simulator so that it answers them 410 Unregistered. Short activities keep the fan-out per order
/// change realistic: only devices with a running activity follow a store.
///
/// The stream is produced in time order with a small heap of scheduled session ends, so millions of
/// events need memory for the devices only. Same parameters and seed, same bytes.
public struct OrderChangesGenerator {
    public var events: Int
    public var devices: Int
    public var stores: Int
    public var seed: UInt64
    /// Stores a device follows at most. Default 3.
    public var maxFollows = 3
    /// Share of device sessions whose token is dead. Default 0.02.
    public var deadShare = 0.02
    /// Share of devices that start a second activity, with a new token. Default 0.2.
    public var rotationShare = 0.2
    /// Each activity subscribes to its first store's broadcast channel when it starts (`input_push_channel`
    /// on `device.register`, as ActivityKit's `input-push-channel` does): a recording for broadcast delivery.
    /// Default false. The rest of the stream is the same bytes either way (same draws).
    public var channels = false
    /// Midnight UTC of the recorded day (epoch ms). Default 2025-02-25.
    public var dayStartMillis: Int64 = 1_740_441_600_000

    public init(events: Int, devices: Int, stores: Int, seed: UInt64) {
        self.events = events
        self.devices = devices
        self.stores = stores
        self.seed = seed
    }

    /// The hour-of-day weight of order traffic: quiet mornings, a lunch rush, a dinner peak.
    static func weight(hour: Double) -> Double {
        switch hour {
        case ..<9: return 0.1
        case 11.5..<13.5: return 4
        case 18..<20.5: return 3
        case 22...: return 0.3
        default: return 1
        }
    }

    /// Generates; `emit` gets each line (with its newline), `deadToken` each dead token once.
    /// Length: one pass of random draws in a fixed order, which makes the shipped recording byte for byte;
    /// its helpers are closures over the generator's random state and its lines, and `apnsbench scale`, not a
    /// change here, is how a recording grows.
    public func write(_ emit: ([UInt8]) throws -> Void, deadToken: (String) throws -> Void = { _ in }) rethrows {
        var rng = SplitMix64(seed: seed)
        let zipf = Zipf(count: stores, exponent: 1.05)
        let sessions = devices + Int(Double(devices) * rotationShare)
        let ends = sessions
        let orderEvents = max(0, events - sessions - ends)
        let day: Double = 86_400_000

        // Event times: sessions start through the day (most before opening), order changes follow the
        // hourly weights. Both are drawn as sorted uniform streams mapped through their cumulative weights.
        let hourWeights = (0..<24).map { Self.weight(hour: Double($0) + 0.5) }
        let totalWeight = hourWeights.reduce(0, +)
        func orderTime(_ fraction: Double) -> Int64 {
            var remaining = fraction * totalWeight
            for h in 0..<24 {
                if remaining < hourWeights[h] { return dayStartMillis + Int64((Double(h) + remaining / hourWeights[h]) * 3_600_000) }
                remaining -= hourWeights[h]
            }
            return dayStartMillis + Int64(day) - 1
        }

        struct Session { var end: Int64; var device: Int }
        var endHeap = Heap<Session> { $0.end < $1.end }
        var active = Set<Int>()
        var storeCounts = [(orders: Int, late: Int, items: Int)](repeating: (0, 0, 0), count: stores)
        var sessionsStarted = 0, endsWritten = 0, ordersWritten = 0
        // Session starts follow the same hourly weights as orders: more activities in the rushes.
        func nextSessionTime() -> Int64 {
            sessionsStarted < sessions ? orderTime(min(0.999_999, (Double(sessionsStarted) + rng.unit()) / Double(sessions))) : .max
        }
        var nextSessionAt = nextSessionTime()
        var orderIndex = 0

        func line(_ at: Int64, _ build: (inout NDJSONLine) -> Void) throws {
            var l = NDJSONLine()
            l.string("at", Timestamp.iso8601(millis: at))
            build(&l)
            try emit(l.line)
        }
        func deviceID(_ d: Int) -> String {
            var r = SplitMix64(seed: (seed ^ 0xD1B5_4A32_D192_ED03) &+ UInt64(d) &* 0x9E37_79B9_7F4A_7C15)
            return r.uuid()
        }

        // The next order change's time: evenly spread quantiles of the day's weights, with jitter; drawn
        // once per order event, so times never go backwards.
        func nextOrderTime() -> Int64 {
            ordersWritten < orderEvents ? orderTime(min(0.999_999, (Double(orderIndex) + rng.unit()) / Double(orderEvents))) : .max
        }
        var orderAt = nextOrderTime()
        while sessionsStarted < sessions || ordersWritten < orderEvents || !endHeap.isEmpty {
            let sessionAt = nextSessionAt
            let endAt: Int64 = endHeap.peek?.end ?? .max
            let now = min(orderAt, sessionAt, endAt)
            if now == .max { break }

            if now == sessionAt {
                // A restart goes to a device whose activity is not running (one activity per device).
                var d = sessionsStarted < devices ? sessionsStarted : Int(rng.next() % UInt64(devices))
                var tries = 0
                while active.contains(d), tries < 4 * devices {
                    d = Int(rng.next() % UInt64(devices))
                    tries += 1
                }
                active.insert(d)
                let token = rng.hex(bytes: 80)
                if rng.unit() < deadShare { try deadToken(token) }
                var follows: [Int] = [zipf.sample(&rng) + 1]
                let n = min(stores, 1 + Int(rng.next() % UInt64(max(1, maxFollows))))
                while follows.count < n {
                    let s = Int(rng.next() % UInt64(stores)) + 1
                    if !follows.contains(s) { follows.append(s) }
                }
                try line(now) { l in
                    l.string("kind", "device.register"); l.string("device_id", deviceID(d))
                    l.string("push_token", token); l.ints("store_ids", follows)
                    if channels { l.int("input_push_channel", follows[0]) }
                }
                endHeap.push(Session(end: now + Int64(300_000 + rng.unit() * 5_100_000), device: d))
                sessionsStarted += 1
                nextSessionAt = nextSessionTime()
            } else if now == endAt, let s = endHeap.pop() {
                active.remove(s.device)
                try line(now) { l in l.string("kind", "activity.end"); l.string("device_id", deviceID(s.device)) }
                endsWritten += 1
            } else {
                let store = zipf.sample(&rng)
                var c = storeCounts[store]
                c.orders = max(0, c.orders + Int(rng.next() % 5) - 1)
                c.late = min(c.orders, max(0, c.late + Int(rng.next() % 3) - 1))
                c.items = max(c.orders, c.items + Int(rng.next() % 9) - 2)
                storeCounts[store] = c
                let priority = c.late > 0 ? 10 : 5
                try line(now) { l in
                    l.string("kind", "order.change"); l.int("store_id", store + 1)
                    l.int("totalOrders", c.orders); l.int("lateOrders", c.late); l.int("totalItems", c.items)
                    l.int("priority", priority)
                }
                ordersWritten += 1
                orderIndex += 1
                orderAt = nextOrderTime()
            }
        }
    }
}

/// A binary min-heap (by `less`), for scheduled events.
struct Heap<Element> {
    private var items: [Element] = []
    private let less: (Element, Element) -> Bool
    init(less: @escaping (Element, Element) -> Bool) { self.less = less }

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var peek: Element? { items.first }

    mutating func push(_ e: Element) {
        items.append(e)
        var i = items.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            guard less(items[i], items[p]) else { break }
            items.swapAt(i, p)
            i = p
        }
    }

    mutating func pop() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count, less(items[l], items[m]) { m = l }
            if r < items.count, less(items[r], items[m]) { m = r }
            if m == i { break }
            items.swapAt(i, m)
            i = m
        }
        return top
    }
}
