import APNsCore
import Foundation

extension APNsLatencyModelFit {
    /// Chosen against fitted, as a Markdown table.
    public var table: String {
        var out = "| parameter | fitted |\n| --- | --: |\n"
        out += String(format: "| measured service time p10 / p50 / p99 | %.2f / %.2f / %.2f ms |\n", serviceP10Millis, serviceP50Millis, serviceP99Millis)
        out += String(format: "| round trip | %.2f ms |\n", roundTripMillis)
        out += String(format: "| server time lognormal p50 / p99 | %.2f / %.2f ms |\n", serverP50Millis, serverP99Millis)
        out += String(format: "| 503 ServiceUnavailable share | %.3f%% |\n", serviceUnavailableShare * 100)
        out += String(format: "| 429 TooManyRequests share | %.3f%% |\n", tooManyRequestsShare * 100)
        out += String(format: "| connection resets per request | %.4f%% |\n", connectionResetShare * 100)
        out += "| requests before GOAWAY | \(goAwayAfterRequests.map(String.init) ?? "none seen") |\n"
        out += "| requests | \(requests) |\n"
        return out
    }
}
