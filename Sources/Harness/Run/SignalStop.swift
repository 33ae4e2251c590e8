import APNsEngine
import Foundation

/// SIGINT and SIGTERM during a run. The first asks the run to stop gracefully (``RunStop``): nothing new is
/// sent, what is in flight gets `drainSeconds` to be answered, the rest is counted as not sent
/// (`interrupted`), and the report is written with balanced counts; the command then exits 128 + the
/// signal (130, 143). A second signal exits at once, saying so, without a report.
public final class SignalStop: @unchecked Sendable {
    /// The stop the run watches.
    public let stop = RunStop()
    public let drainSeconds: Double
    private let lock = NSLock()
    private var first: Int32?
    private var sources: [DispatchSourceSignal] = []

    /// Installs the handlers (SIGINT, SIGTERM); `say` gets the one line each signal prints.
    public init(drainSeconds: Double, say: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.drainSeconds = drainSeconds
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in self?.handle(sig, say: say) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for s in sources { s.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    /// The first signal received, if any.
    public var received: Int32? { lock.withLock { first } }

    /// The exit code for the first signal: 128 + its number (130 for SIGINT, 143 for SIGTERM).
    public var exitCode: Int32? { received.map { 128 + $0 } }

    private func handle(_ sig: Int32, say: (String) -> Void) {
        let isFirst: Bool = lock.withLock {
            if first != nil { return false }
            first = sig
            return true
        }
        let name = sig == SIGINT ? "SIGINT" : "SIGTERM"
        guard isFirst else {
            say("apnsbench: \(name) again: exiting at once, without a report")
            exit(128 + sig)
        }
        say("apnsbench: \(name): stopping; pushes in flight get \(Self.seconds(drainSeconds)) to finish, the rest count as not sent (interrupted); signal again to exit at once")
        stop.request(.interrupted, drainSeconds: drainSeconds, reason: "\(name) received; in-flight pushes drained for up to \(Self.seconds(drainSeconds))")
    }

    static func seconds(_ s: Double) -> String { s == s.rounded() ? "\(Int(s)) s" : "\(s) s" }
}
