import APNsCore
import APNsSimulator
import Foundation
import Reporting

/// The model file `apnsbench model fit` writes, its `simulator:` section in the simulator's keys
/// (`SimulatorKeys`): here, where both the fit and the simulator's table are in reach.
extension APNsLatencyModelFit {
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

    /// The `simulator:` section: the fitted faults, as the simulator's table writes them. The round trip and
    /// the server time are always written, and each error share the run saw.
    public var settings: ConfigValue {
        var c = SimulatorConfiguration()
        c.faults.roundTripMilliseconds = Self.rounded(roundTripMillis)
        c.faults.latency = .lognormal(p50Milliseconds: Self.rounded(serverP50Millis), p99Milliseconds: Self.rounded(serverP99Millis))
        var always: Set = ["faults.round_trip", "faults.latency.lognormal_ms.p50", "faults.latency.lognormal_ms.p99"]
        let shares: [(RequestFault, Double, Int)] = [
            (.serviceUnavailable, serviceUnavailableShare, 5), (.tooManyRequests, tooManyRequestsShare, 5),
            (.connectionReset, connectionResetShare, 6),
        ]
        for (fault, share, places) in shares where share > 0 {
            c.faults.requestFaults[fault] = Self.rounded(share, places: places)
            always.insert(fault.key)
        }
        c.faults.goAwayAfterStreams = goAwayAfterRequests
        return SimulatorKeys.settings(of: c, always: always)
    }
}
