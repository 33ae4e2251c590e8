import APNsCore
import Foundation

extension ModelFit {
    /// The model file: where it came from (`source:`), and the `simulator:` section that `--apns-model FILE`
    /// and a profile's `simulator: {model: FILE}` read.
    public func file(report r: RunReport, reportPath: String) -> String {
        var out = """
            # An APNs model fitted by `apnsbench model fit` to a measured run: a fixed round trip plus a lognormal
            # server time, and the shares of error answers and connection events the run saw. Use it with
            # `apnsbench sweep PROFILE --apns-model FILE` or a profile's `simulator: {model: FILE}`.
            source:
              report: \(Self.quoted(reportPath))
              run_id: \(Self.quoted(r.runID ?? "-"))
              started_at: \(Self.quoted(r.startedAt))
              target: \(Self.quoted(r.configuration.target.description))
              requests: \(requests)
              measured_service_ms: {p10: \(Self.rounded(serviceP10Millis)), p50: \(Self.rounded(serviceP50Millis)), p99: \(Self.rounded(serviceP99Millis))}

            """
        if !warnings.isEmpty {
            out += "  warnings:\n" + warnings.map { "    - \(Self.quoted($0))\n" }.joined()
        }
        out += "simulator:\n" + Self.yaml(settings, indent: "  ")
        return out
    }

    /// A mapping as block YAML, keys sorted; scalars as JSON writes them (valid YAML).
    static func yaml(_ value: ConfigValue, indent: String) -> String {
        guard case let .object(keys) = value else { return indent + value.json + "\n" }
        var out = ""
        for key in keys.keys.sorted() {
            let v = keys[key]!
            if case .object = v {
                out += "\(indent)\(key):\n" + yaml(v, indent: indent + "  ")
            } else {
                out += "\(indent)\(key): \(v.json)\n"
            }
        }
        return out
    }

    static func quoted(_ s: String) -> String { ConfigValue.string(s).json }

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
