import APNsCore

/// How the views word a report written by `apnsbench simulate --report`, where the clock, the latency and the
/// stop mean something else than in a run's report: the pushes arrived when the sender sent them (wall clock, no
/// recording), the latency is the simulator's own time, and the simulator always stops on request.
enum SenderWording {
    /// The label of the one latency a sender's report has: its `responseTime` and `serviceTime` are the same.
    static let timeInSimulatorLabel = "time in the simulator (request's last frame read to its answer due)"

    /// The clock the device section's times count on, in words.
    static func deviceClock(_ report: RunReport) -> String {
        report.received == nil
            ? "modelled in the recording's time (the same at any replay speed; the model's numbers are assumptions where Apple "
                + "publishes none, see docs/simulator.md)"
            : "modelled in wall-clock time as the pushes arrived (the sender's pace changes it; the model's numbers are "
                + "assumptions where Apple publishes none, see docs/simulator.md)"
    }

    /// The heading of the time-to-device column.
    static func timeToDeviceLabel(_ report: RunReport) -> String {
        report.received == nil ? "time to device (from the event, holds included)" : "time to device (from arrival at the simulator)"
    }

    /// `Stopped early: SIGINT` for a run; for a sender's report, how the simulator was asked to stop
    /// (`Stopped: requested (POST /stop)`), which is no early stop.
    static func stop(_ report: RunReport) -> (label: String, text: String)? {
        guard let why = report.stopReason else { return nil }
        guard report.received != nil else { return ("Stopped early", why) }
        switch why {
        case "POST /stop": return ("Stopped", "requested (POST /stop)")
        case "SIGINT", "SIGTERM": return ("Stopped", "by \(why)")
        default: return ("Stopped", why.hasPrefix("--duration") ? "at \(why)" : why)
        }
    }
}
