/// One point of a chart series, in data units (seconds, pushes per second, milliseconds …).
public struct ChartPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Largest-Triangle-Three-Buckets downsampling (Sveinn Steinarsson, "Downsampling Time Series for Visual
/// Representation", 2013): keeps the first and the last point and, from each of `threshold - 2` equal
/// buckets between them, the point that makes the largest triangle with the point kept from the bucket
/// before and the average of the bucket after. Peaks and troughs survive, so a one-hour run drawn from
/// 1000 points looks like the 3600 it came from.
///
/// Pure and O(n). The points must be in increasing x order.
public enum Lttb {
    /// The points to keep, at most `threshold` of them; all of them when there are no more than that
    /// (or when `threshold` is below 3, where buckets make no sense).
    public static func downsample(_ points: [ChartPoint], to threshold: Int) -> [ChartPoint] {
        indices(points, to: threshold).map { points[$0] }
    }

    /// The indices ``downsample(_:to:)`` keeps, increasing: lets several aligned series (the layers of a
    /// stacked chart) keep the same x values, chosen on one of them.
    public static func indices(_ points: [ChartPoint], to threshold: Int) -> [Int] {
        let n = points.count
        guard threshold >= 3, n > threshold else { return Array(0..<n) }
        var kept: [Int] = []
        kept.reserveCapacity(threshold)
        kept.append(0)
        // The n - 2 points between the first and the last, in threshold - 2 buckets.
        let bucketSize = Double(n - 2) / Double(threshold - 2)
        var a = 0
        for bucket in 0..<(threshold - 2) {
            let start = Int(Double(bucket) * bucketSize) + 1
            let end = Swift.min(Int(Double(bucket + 1) * bucketSize) + 1, n - 1)
            // The average of the next bucket (the last point, for the last bucket).
            let nextStart = end
            let nextEnd = Swift.min(Int(Double(bucket + 2) * bucketSize) + 1, n)
            var avgX = 0.0, avgY = 0.0
            let nextCount = Swift.max(nextEnd - nextStart, 1)
            for i in nextStart..<Swift.max(nextEnd, nextStart + 1) {
                avgX += points[i].x
                avgY += points[i].y
            }
            avgX /= Double(nextCount)
            avgY /= Double(nextCount)

            let pa = points[a]
            var best = start
            var bestArea = -1.0
            for i in start..<Swift.max(end, start + 1) {
                let p = points[i]
                // Twice the triangle's area; the factor does not change which is largest.
                let area = abs((pa.x - avgX) * (p.y - pa.y) - (pa.x - p.x) * (avgY - pa.y))
                if area > bestArea {
                    bestArea = area
                    best = i
                }
            }
            kept.append(best)
            a = best
        }
        kept.append(n - 1)
        return kept
    }
}
