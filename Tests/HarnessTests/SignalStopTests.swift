import APNsCore
import APNsEngine
import Foundation
import XCTest
@testable import Harness

/// The one SIGINT/SIGTERM handler of `run` and `simulate`: real signals sent to this process while a
/// ``SignalStop`` is in place (it takes them over; the default action would end the test process), and
/// the second signal's immediate exit decided in memory. `ExitCodeTests` checks the commands' exit codes.
/// Every signal is sent with a stop in place: with none, one ends the process, as the default would.
final class SignalStopTests: XCTestCase {
    /// Lines the handler printed.
    final class Said: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ line: String) { lock.withLock { stored.append(line) } }
        var lines: [String] { lock.withLock { stored } }
    }

    func testSIGINTStopsARunGracefullyAndMeansExit130() throws {
        let said = Said()
        let signals = SignalStop(drainSeconds: 2.5) { said.append($0) }
        XCTAssertNil(signals.received)
        XCTAssertNil(signals.exitCode)
        XCTAssertFalse(signals.stop.isRequested)

        kill(getpid(), SIGINT)
        XCTAssertTrue(signals.wait(timeout: 120), "the signal arrived")
        XCTAssertEqual(signals.received, SIGINT)
        XCTAssertEqual(signals.exitCode, 130)
        XCTAssertTrue(signals.stop.isRequested)
        XCTAssertEqual(signals.stop.cause, .interrupted)
        XCTAssertEqual(signals.stop.reason, "SIGINT received; in-flight pushes drained for up to 2.5 s")
        XCTAssertEqual(said.lines, ["apnsbench: SIGINT: stopping; pushes in flight get 2.5 s to finish, the rest count as not sent (interrupted); "
            + "signal again to exit at once"])
    }

    func testSIGTERMMeansExit143() throws {
        let said = Said()
        let signals = SignalStop(drainSeconds: 10) { said.append($0) }
        kill(getpid(), SIGTERM)
        XCTAssertTrue(signals.wait(timeout: 120))
        XCTAssertEqual(signals.exitCode, 143)
        XCTAssertEqual(said.lines.first?.hasPrefix("apnsbench: SIGTERM: stopping; pushes in flight get 10 s to finish"), true, "\(said.lines)")
        XCTAssertTrue(signals.wait(timeout: 0), "a second wait returns at once")
    }

    func testTheSimulatorStopsQuietlyAndASignalBeforeTheWaitIsKept() throws {
        let said = Said()
        let signals = SignalStop(.simulator) { said.append($0) }
        XCTAssertFalse(signals.wait(timeout: 0.2), "no signal yet")
        kill(getpid(), SIGTERM)
        // Waited for only after it came: not lost.
        while signals.received == nil { usleep(10_000) }
        XCTAssertTrue(signals.wait())
        XCTAssertEqual(signals.received, SIGTERM)
        XCTAssertEqual(said.lines, [], "the simulator prints its own stop line")
    }

    func testASecondSignalExitsAtOnceSayingWhatIsLost() {
        let run = SignalStop(drainSeconds: 1) { _ in }
        XCTAssertEqual(run.action(for: SIGINT), .stop(line: "apnsbench: SIGINT: stopping; pushes in flight get 1 s to finish, "
            + "the rest count as not sent (interrupted); signal again to exit at once"))
        XCTAssertEqual(run.action(for: SIGTERM), .exitNow(code: 143, line: "apnsbench: SIGTERM again: exiting at once, without a report"))
        XCTAssertEqual(run.action(for: SIGINT), .exitNow(code: 130, line: "apnsbench: SIGINT again: exiting at once, without a report"))
        XCTAssertEqual(run.received, SIGINT, "the first signal is the one the exit code follows")

        let simulator = SignalStop(.simulator) { _ in }
        XCTAssertEqual(simulator.action(for: SIGTERM), .stop(line: nil))
        XCTAssertEqual(simulator.action(for: SIGINT), .exitNow(code: 130, line: "apnsbench: SIGINT again: exiting at once, without the counters"))
    }

    func testAStopMadeAfterAnotherWasReleasedGetsTheSignals() throws {
        weak var released: SignalStop?
        do {
            let earlier = SignalStop(drainSeconds: 0) { _ in }
            released = earlier
            kill(getpid(), SIGINT)
            XCTAssertTrue(earlier.wait(timeout: 120))
            XCTAssertEqual(earlier.received, SIGINT)
        }
        // The signal's handler holds the stop while it delivers, on a thread of its own, so it may outlive
        // this scope by a moment.
        let gone = Date().addingTimeInterval(60)
        while released != nil, Date() < gone { usleep(1_000) }
        XCTAssertNil(released, "the earlier stop is gone")
        let later = SignalStop(.simulator) { _ in }
        kill(getpid(), SIGTERM)
        XCTAssertTrue(later.wait(timeout: 120), "the later stop gets the signal")
        XCTAssertEqual(later.received, SIGTERM)
    }
}
