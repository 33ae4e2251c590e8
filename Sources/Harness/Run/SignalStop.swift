import APNsEngine
import Foundation

/// SIGINT and SIGTERM, for every command that stops on them (`run`, `simulate`), caught from creation on
/// (DispatchSource signal sources, not a C handler), so a signal that comes before anyone waits is kept.
///
/// The first signal asks for a graceful stop: ``stop`` is requested and ``wait(timeout:)`` returns. In a run
/// nothing new is sent, what is in flight gets `drainSeconds` to be answered, the rest is counted as not sent
/// (`interrupted`), and the report is written with balanced counts; the command then exits 128 + the signal
/// (``exitCode``: 130, 143). A second signal exits at once, saying so.
public final class SignalStop: @unchecked Sendable {
    /// How a command stops.
    public struct Plan: Sendable, Equatable {
        /// How long pushes in flight get to be answered after the first signal.
        public var drainSeconds: Double
        /// Whether the first signal prints what happens next (a run does; the simulator says it stopped itself).
        public var announces: Bool
        /// What exiting at once on a second signal leaves out.
        public var lostOnExit: String

        /// A run: drain, write the report, exit 128 + the signal.
        public static func run(drainSeconds: Double) -> Plan { Plan(drainSeconds: drainSeconds, announces: true, lostOnExit: "a report") }
        /// `apnsbench simulate`: stop serving and print the counters.
        public static let simulator = Plan(drainSeconds: 0, announces: false, lostOnExit: "the counters")
    }

    /// What one signal leads to.
    enum Action: Equatable {
        /// The first: stop gracefully, printing `line` if there is one.
        case stop(line: String?)
        /// A later one: print `line` and exit with `code` at once.
        case exitNow(code: Int32, line: String)
    }

    /// The stop the run watches.
    public let stop = RunStop()
    public let plan: Plan
    public var drainSeconds: Double { plan.drainSeconds }
    private let say: @Sendable (String) -> Void
    private let lock = NSLock()
    private var first: Int32?
    private let arrived = DispatchSemaphore(value: 0)

    /// Takes SIGINT and SIGTERM for `plan` (from now until it is released); `say` gets the one line a signal prints.
    public init(_ plan: Plan, say: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.plan = plan
        self.say = say
        SignalRouter.shared.route(to: self)
    }

    /// A run's handlers: ``Plan/run(drainSeconds:)``.
    public convenience init(drainSeconds: Double, say: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.init(.run(drainSeconds: drainSeconds), say: say)
    }

    deinit { SignalRouter.shared.unroute(ObjectIdentifier(self)) }

    /// The first signal received, if any.
    public var received: Int32? { lock.withLock { first } }

    /// The exit code for the first signal: 128 + its number (130 for SIGINT, 143 for SIGTERM).
    public var exitCode: Int32? { received.map { 128 + $0 } }

    /// Waits for the first signal (returns at once if it came already); false if none came within `timeout`
    /// seconds (nil: no limit).
    @discardableResult
    public func wait(timeout: Double? = nil) -> Bool {
        let came = timeout.map { arrived.wait(timeout: .now() + $0) == .success } ?? { arrived.wait(); return true }()
        if came { arrived.signal() }  // for the next waiter
        return came
    }

    /// What `sig` leads to, now: the first signal stops, any later one exits. Records the first.
    func action(for sig: Int32) -> Action {
        let isFirst: Bool = lock.withLock {
            if first != nil { return false }
            first = sig
            return true
        }
        let name = Self.name(sig)
        guard isFirst else { return .exitNow(code: 128 + sig, line: "apnsbench: \(name) again: exiting at once, without \(plan.lostOnExit)") }
        return .stop(line: plan.announces
            ? "apnsbench: \(name): stopping; pushes in flight get \(Self.seconds(plan.drainSeconds)) to finish, the rest count as not sent (interrupted); "
                + "signal again to exit at once"
            : nil)
    }

    fileprivate func perform(_ sig: Int32) {
        switch action(for: sig) {
        case .exitNow(let code, let line):
            say(line)
            exit(code)
        case .stop(let line):
            if let line { say(line) }
            let name = Self.name(sig)
            stop.request(.interrupted, drainSeconds: plan.drainSeconds,
                         reason: "\(name) received; in-flight pushes drained for up to \(Self.seconds(plan.drainSeconds))")
            arrived.signal()
        }
    }

    static func name(_ sig: Int32) -> String { sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "signal \(sig)" }

    static func seconds(_ s: Double) -> String { s == s.rounded() ? "\(Int(s)) s" : "\(s) s" }
}

/// The process's SIGINT and SIGTERM, taken over once and kept: libdispatch installs its own handler for a
/// signal the first time a source for it is registered, once per process, so sources are never made twice.
/// Each signal goes to the ``SignalStop`` in place; with none in place it exits at once with 128 + the
/// signal, as the default action would have ended the process.
private final class SignalRouter: @unchecked Sendable {
    static let shared = SignalRouter()
    private let lock = NSLock()
    private weak var current: SignalStop?
    private var currentID: ObjectIdentifier?
    private var sources: [DispatchSourceSignal] = []

    func route(to stop: SignalStop) {
        lock.withLock {
            current = stop
            currentID = ObjectIdentifier(stop)
            if sources.isEmpty { install() }
        }
    }

    func unroute(_ id: ObjectIdentifier) {
        lock.withLock {
            guard currentID == id else { return }
            current = nil
            currentID = nil
        }
    }

    /// Makes the sources and returns once they are registered, so no signal after it is missed.
    private func install() {
        let registered = DispatchSemaphore(value: 0)
        for sig in [SIGINT, SIGTERM] {
            // The default action (exit at once) off first; libdispatch's handler, installed when the source
            // is registered, then takes the signal.
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [unowned self] in deliver(sig) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            sources.append(source)
        }
        for _ in sources { _ = registered.wait(timeout: .now() + 10) }
    }

    private func deliver(_ sig: Int32) {
        guard let stop = lock.withLock({ current }) else { exit(128 + sig) }
        stop.perform(sig)
    }
}
