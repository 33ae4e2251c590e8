/// A stretch of a run's timeline when the target answered nothing: intervals with resends after a
/// transport error and no answer of any kind, joined when they follow one another.
struct TimelineOutage: Equatable {
    /// Seconds since the run's start: the first silent interval's start and the last one's end.
    var from: Double
    var to: Double
    /// Resends after a transport error, and connections lost, within the stretch.
    var transportResends: Int
    var connectionsLost: Int

    /// The outages of `timeline`, in order.
    static func find(in timeline: [RunReport.TimelineEntry], interval: Double) -> [TimelineOutage] {
        var out: [TimelineOutage] = []
        var lastSilent = -1.0
        for e in timeline {
            let silent = e.transportResends > 0 && e.delivered == 0 && (e.rejected ?? 0) == 0
            guard silent else { continue }
            let start = Double(e.second)
            if var last = out.last, start - lastSilent <= interval + 1e-9 {
                last.to = start + interval
                last.transportResends += e.transportResends
                last.connectionsLost += e.connectionsLost ?? 0
                out[out.count - 1] = last
            } else {
                out.append(TimelineOutage(from: start, to: start + interval, transportResends: e.transportResends,
                                          connectionsLost: e.connectionsLost ?? 0))
            }
            lastSilent = start
        }
        return out
    }
}
