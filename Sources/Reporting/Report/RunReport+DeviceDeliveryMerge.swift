import APNsCore
import Histogram

extension RunReport.DeviceDelivery {
    /// Shards' device sections added up: tokens are split between shards and devices are independent, so each
    /// push's outcome was decided in exactly one shard; counts add, and the time-to-device histograms are
    /// added from their encoded form (exactly). Nil when no shard modelled devices; every shard must have
    /// (their configurations are equal), with the same parameters.
    public static func merged(_ parts: [RunReport.DeviceDelivery]) throws -> RunReport.DeviceDelivery? {
        guard var total = parts.first else { return nil }
        func add(_ a: [String: Int], _ b: [String: Int]) -> [String: Int] { a.merging(b, uniquingKeysWith: +) }
        var byPriority = try decoded(total.timeToDevice.histograms.byPriority)
        var byPushType = try decoded(total.timeToDevice.histograms.byPushType)
        for part in parts.dropFirst() {
            total.pushes += part.pushes
            total.outcomes = add(total.outcomes, part.outcomes)
            total.replaced = add(total.replaced, part.replaced)
            total.dropped = add(total.dropped, part.dropped)
            total.shownStale += part.shownStale
            for (key, h) in try decoded(part.timeToDevice.histograms.byPriority) { byPriority[key, default: DeviceDeliveryTally.makeHistogram()].add(h) }
            for (key, h) in try decoded(part.timeToDevice.histograms.byPushType) { byPushType[key, default: DeviceDeliveryTally.makeHistogram()].add(h) }
        }
        total.timeToDevice = .init(histograms: byPriority, byPushType: byPushType)
        return total
    }

    /// p99 time to device of every push shown, whatever its priority (from the encoded histograms); nil when
    /// none was shown or a histogram does not decode.
    public var overallP99Millis: Int? {
        guard let hs = try? Self.decoded(timeToDevice.histograms.byPriority), !hs.isEmpty else { return nil }
        var all = DeviceDeliveryTally.makeHistogram()
        for h in hs.values { all.add(h) }
        return all.totalCount == 0 ? nil : Int(all.valueAtPercentile(99))
    }

    private static func decoded(_ encoded: [String: String]) throws -> [String: Histogram<UInt64>] {
        try encoded.mapValues { try EncodedHistogram.decode($0) }
    }
}

extension RunReport.DeviceDelivery.TimeToDevice {
    /// Summaries (ms) and encodings of time-to-device histograms by priority and by push type.
    init(histograms byPriority: [String: Histogram<UInt64>], byPushType: [String: Histogram<UInt64>]) {
        let summaries = { (hs: [String: Histogram<UInt64>]) in hs.mapValues { LatencySummary(histogram: $0, unit: "ms") } }
        self.init(byPriority: summaries(byPriority), byPushType: summaries(byPushType),
                  histograms: .init(byPriority: byPriority.mapValues(EncodedHistogram.encode),
                                    byPushType: byPushType.mapValues(EncodedHistogram.encode)))
    }
}
