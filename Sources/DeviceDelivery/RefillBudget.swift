import APNsCore

/// A budget that refills evenly over time up to a burst (a token bucket), on the recording's clock: the Live
/// Activity budget of priority-10 updates, and push-to-start's. A push takes one place; in delay mode a push
/// past the budget reserves the next place to come, so the places go below zero and later pushes wait longer.
struct RefillBudget: Sendable, Equatable {
    let perMillis: Double
    let burst: Double
    private(set) var places: Double
    private var lastMillis: Int64?

    init(perHour: Double, burst: Int) {
        perMillis = perHour / 3_600_000
        self.burst = Double(burst)
        places = Double(burst)
    }

    private mutating func refill(to millis: Int64) {
        if let last = lastMillis, millis > last { places = min(burst, places + Double(millis - last) * perMillis) }
        if lastMillis.map({ millis > $0 }) ?? true { lastMillis = millis }
    }

    /// Takes a place at `millis`: 0 when one is free now; otherwise nil (`reserve` false: nothing taken) or
    /// how many milliseconds later the reserved place comes (`reserve` true).
    mutating func take(at millis: Int64, reserve: Bool) -> Int64? {
        refill(to: millis)
        if places >= 1 {
            places -= 1
            return 0
        }
        guard reserve else { return nil }
        places -= 1
        return Int64((-places / perMillis).rounded(.up))
    }
}
