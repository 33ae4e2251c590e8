import APNsCore
@testable import APNsSimulator
import XCTest

/// `ConnectionPolicy` on its own: events in, actions out, no channel. Times are nanoseconds the tests choose.
final class ConnectionPolicyTests: XCTestCase {
    private typealias Policy = ConnectionPolicy

    private func policy(connectionID: Int = 1, _ configure: (inout SimulatorConfiguration) -> Void = { _ in }) -> Policy {
        var c = SimulatorConfiguration()
        configure(&c)
        return Policy(configuration: c, connectionID: connectionID)
    }

    private static let second: UInt64 = 1_000_000_000

    // MARK: Refusals

    func testNewStreamsAreRefusedPastTheAcknowledgedLimitAndWhileGoingAway() {
        // (acknowledged SETTINGS so far, streams open, expected)
        let table: [(acks: Int, open: Int, expected: Policy.StreamAction)] = [
            (0, 0, .admit), (0, 5, .admit),   // before the first ACK the client cannot know the limit
            (1, 0, .admit), (1, 1, .refuse), (1, 7, .refuse),
        ]
        for row in table {
            var p = policy()
            for _ in 0..<row.acks { p.settingsAcknowledged() }
            XCTAssertEqual(p.streamOpened(openStreams: row.open, now: 0), row.expected, "\(row)")
        }
        var p = policy()
        p.settingsAcknowledged()
        XCTAssertEqual(p.streamOpened(openStreams: 0, now: 0), .admit)
        XCTAssertTrue(p.beginGoAway())
        XCTAssertFalse(p.beginGoAway(), "one GOAWAY per connection")
        XCTAssertEqual(p.streamOpened(openStreams: 0, now: 0), .refuse, "nothing new after GOAWAY")
    }

    // MARK: The advertised limit

    func testTheLimitRisesOnceAfterTheFirstValidTokenAndOptionallyDropsAfterARejection() {
        typealias Step = (accepted: Bool, authenticated: Bool, expected: Policy.LimitAction, advertised: Int)
        let table: [(drops: Bool, steps: [Step])] = [
            (false, [
                (false, false, .keep, 1),                       // no valid token yet
                (true, true, .raise(to: 1000, final: true), 1000),
                (false, true, .keep, 1000),                     // no drops configured
                (true, true, .keep, 1000),
            ]),
            (true, [
                (true, true, .raise(to: 1000, final: false), 1000),
                (false, true, .drop(to: 1), 1),
                (false, true, .keep, 1),                        // already dropped
                (true, true, .restore(to: 1000), 1000),
                (true, true, .keep, 1000),
            ]),
            (true, [
                (false, true, .raiseThenDrop(to: 1000, then: 1), 1), // bound to a token, then rejected
                (true, true, .restore(to: 1000), 1000),
            ]),
            (true, [
                (false, false, .keep, 1),                       // no drop before the raise
            ]),
        ]
        for (drops, steps) in table {
            var p = policy { $0.dropStreamLimitAfterRejection = drops }
            for (i, step) in steps.enumerated() {
                guard case let .answer(answer) = p.requestValidated(accepted: step.accepted, authenticated: step.authenticated) else {
                    return XCTFail("no faults configured, yet no answer")
                }
                XCTAssertEqual(answer.limit, step.expected, "drops \(drops), step \(i)")
                XCTAssertEqual(p.limit.advertised, step.advertised, "drops \(drops), step \(i)")
                XCTAssertNil(answer.injected)
            }
        }
    }

    func testARaisedLimitIsEnforcedAtOnce() {
        var p = policy()
        p.settingsAcknowledged()
        XCTAssertEqual(p.streamOpened(openStreams: 1, now: 0), .refuse)
        _ = p.requestValidated(accepted: true, authenticated: true)
        XCTAssertEqual(p.streamOpened(openStreams: 1, now: 0), .admit, "before the client acknowledged the raise")
        XCTAssertEqual(p.streamOpened(openStreams: 999, now: 0), .admit)
        XCTAssertEqual(p.streamOpened(openStreams: 1000, now: 0), .refuse)
    }

    // MARK: Injected faults

    func testEachFaultAtAShareOfOneReplacesEveryValidAnswer() {
        let table: [(String, (inout FaultInjection) -> Void, Policy.RequestAction)] = [
            ("500", { $0.requestFaults[.internalServerError] = 1 }, .answer(.init(injected: .internalServerError))),
            ("503", { $0.requestFaults[.serviceUnavailable] = 1 }, .answer(.init(injected: .serviceUnavailable))),
            ("shutdown", { $0.requestFaults[.shutdown] = 1 }, .answer(.init(injected: .shutdown, goAwayAfter: true))),
            ("reset", { $0.requestFaults[.connectionReset] = 1 }, .resetConnection),
        ]
        for (name, configure, expected) in table {
            var p = policy { configure(&$0.faults) }
            for i in 0..<5 { XCTAssertEqual(p.requestValidated(accepted: true, authenticated: false), expected, "\(name) #\(i)") }
            // A request the validator rejected keeps its own answer: no dice.
            XCTAssertEqual(p.requestValidated(accepted: false, authenticated: false), .answer(.init()), name)
        }
    }

    /// The dice: one `unit()` per valid request from a generator seeded with the configured seed and the
    /// connection id, against the shares in the order reset, 500, 503, Shutdown. Pinned against the
    /// generator itself, so that a change of order or seeding shows here.
    func testTheDiceFollowTheSeedAndTheConnectionID() {
        let shares = (reset: 0.1, internal: 0.2, unavailable: 0.3, shutdown: 0.1)
        func actions(seed: UInt64, connectionID: Int, rejectedEvery: Int = 0) -> [Policy.RequestAction] {
            var p = policy(connectionID: connectionID) { c in
                c.seed = seed
                c.faults.requestFaults[.connectionReset] = shares.reset
                c.faults.requestFaults[.internalServerError] = shares.internal
                c.faults.requestFaults[.serviceUnavailable] = shares.unavailable
                c.faults.requestFaults[.shutdown] = shares.shutdown
            }
            var out: [Policy.RequestAction] = []
            for i in 1...400 {
                if rejectedEvery > 0, i % rejectedEvery == 0 { _ = p.requestValidated(accepted: false, authenticated: false) }
                out.append(p.requestValidated(accepted: true, authenticated: true))
            }
            return out
        }
        func expected(seed: UInt64, connectionID: Int) -> [Policy.RequestAction] {
            var random = SplitMix64(seed: SplitMix64.mix(seed ^ UInt64(connectionID) &* 0x9E37_79B9_7F4A_7C15))
            var first = true
            return (0..<400).map { _ in
                let roll = random.unit()
                var limit: Policy.LimitAction = .keep
                if first { limit = .raise(to: 1000, final: true) }
                let result: Policy.RequestAction
                switch roll {
                case ..<shares.reset: return .resetConnection
                case ..<(shares.reset + shares.internal): result = .answer(.init(injected: .internalServerError, limit: limit))
                case ..<(shares.reset + shares.internal + shares.unavailable): result = .answer(.init(injected: .serviceUnavailable, limit: limit))
                case ..<(shares.reset + shares.internal + shares.unavailable + shares.shutdown):
                    result = .answer(.init(injected: .shutdown, goAwayAfter: true, limit: limit))
                default: result = .answer(.init(limit: limit))
                }
                first = false
                return result
            }
        }
        let a = actions(seed: 42, connectionID: 1)
        XCTAssertEqual(a, expected(seed: 42, connectionID: 1))
        XCTAssertEqual(a, actions(seed: 42, connectionID: 1, rejectedEvery: 3), "a rejected request rolls no dice")
        XCTAssertNotEqual(a, actions(seed: 42, connectionID: 2), "each connection has its own dice")
        XCTAssertNotEqual(a, actions(seed: 43, connectionID: 1))
        // Every outcome shows up in 400 rolls at these shares.
        XCTAssertTrue(a.contains(.resetConnection))
        for reason in [Reason.internalServerError, .serviceUnavailable, .shutdown, nil] {
            XCTAssertTrue(a.contains { if case let .answer(x) = $0 { return x.injected == reason }; return false }, "\(String(describing: reason))")
        }
    }

    func testAnInjectedFaultCountsAsARejectionForTheLimit() {
        var p = policy { c in
            c.dropStreamLimitAfterRejection = true
            c.faults.requestFaults[.serviceUnavailable] = 1
        }
        XCTAssertEqual(p.requestValidated(accepted: true, authenticated: true),
                       .answer(.init(injected: .serviceUnavailable, limit: .raiseThenDrop(to: 1000, then: 1))))
    }

    func testLatencyIsSampledForEveryAnswer() {
        var fixed = policy { $0.faults.latency = .fixed(milliseconds: 7) }
        XCTAssertEqual(fixed.requestValidated(accepted: true, authenticated: false), .answer(.init(delayMilliseconds: 7)))
        XCTAssertEqual(fixed.requestValidated(accepted: false, authenticated: false), .answer(.init(delayMilliseconds: 7)))
        var none = policy()
        XCTAssertEqual(none.requestValidated(accepted: true, authenticated: false), .answer(.init(delayMilliseconds: 0)))
        var uniform = policy { $0.faults.latency = .uniform(minMilliseconds: 2, maxMilliseconds: 4) }
        for _ in 0..<50 {
            guard case let .answer(a) = uniform.requestValidated(accepted: true, authenticated: false) else { return XCTFail() }
            XCTAssertTrue((2..<4).contains(a.delayMilliseconds), "\(a.delayMilliseconds)")
        }
    }

    // MARK: GOAWAY

    func testGoAwayAfterNAnsweredStreamsOrAfterAShutdownAnswer() {
        // (goaway_after_streams, the answers' goAwayAfter flags, expected actions)
        let table: [(Int?, [Bool], [Policy.GoAwayAction])] = [
            (3, [false, false, false], [.none, .none, .goAway(.shutdown)]),
            (1, [false], [.goAway(.shutdown)]),
            (nil, [false, false, true], [.none, .none, .goAway(.shutdown)]),
            (nil, Array(repeating: false, count: 5), Array(repeating: .none, count: 5)),
        ]
        for (n, flags, expected) in table {
            var p = policy { $0.faults.goAwayAfterStreams = n }
            XCTAssertEqual(flags.map { p.streamAnswered(goAwayAfter: $0) }, expected, "after \(String(describing: n)), \(flags)")
            XCTAssertEqual(p.answeredStreams, flags.count)
        }
        var p = policy { $0.faults.goAwayAfterStreams = 1 }
        XCTAssertTrue(p.beginGoAway())
        XCTAssertEqual(p.streamAnswered(goAwayAfter: true), .none, "GOAWAY already sent")
    }

    func testTimersStartOnceAndTheGoAwayTimerAsksForShutdown() {
        var p = policy { c in
            c.faults.goAwayAfterSeconds = 600
            c.faults.idleTimeoutSeconds = 30
        }
        XCTAssertEqual(p.connectionStarted(now: 0), .init(goAwayAfterSeconds: 600, idleCheckAfterSeconds: 30))
        XCTAssertEqual(p.connectionStarted(now: 5), .none, "handlerAdded and channelActive both start it")
        XCTAssertEqual(p.goAwayTimerFired(), .goAway(.shutdown))
        _ = p.beginGoAway()
        XCTAssertEqual(p.goAwayTimerFired(), .none)
        var quiet = policy()
        XCTAssertEqual(quiet.connectionStarted(now: 0), .none)
    }

    func testIdleChecks() {
        let s = Self.second
        // (a request at, check at, streams open, expected); the connection starts at 10 s, timeout 2 s.
        let table: [(request: UInt64?, check: UInt64, open: Int, expected: Policy.IdleCheckAction)] = [
            (nil, 12 * s, 0, .goAway(.idleTimeout)),
            (nil, 13 * s, 0, .goAway(.idleTimeout)),
            (nil, 12 * s, 1, .checkAgain(afterSeconds: 0.001)),       // a stream still open
            (11 * s, 12 * s, 0, .checkAgain(afterSeconds: 1)),        // a request 1 s ago
            (11 * s + s / 2, 12 * s, 0, .checkAgain(afterSeconds: 1.5)),
            (11 * s, 13 * s, 0, .goAway(.idleTimeout)),
        ]
        for row in table {
            var p = policy { $0.faults.idleTimeoutSeconds = 2 }
            _ = p.connectionStarted(now: 10 * s)
            if let at = row.request {
                p.settingsAcknowledged()
                XCTAssertEqual(p.streamOpened(openStreams: 0, now: at), .admit)
            }
            XCTAssertEqual(p.idleCheckFired(now: row.check, openStreams: row.open), row.expected, "\(row)")
        }
        var going = policy { $0.faults.idleTimeoutSeconds = 2 }
        _ = going.connectionStarted(now: 0)
        _ = going.beginGoAway()
        XCTAssertEqual(going.idleCheckFired(now: 100 * s, openStreams: 0), .none)
        let untimed = policy()
        XCTAssertEqual(untimed.idleCheckFired(now: 100 * s, openStreams: 0), .none)
    }
}

/// The stall fault and latency spikes: rolled from the seed, in their share.
final class ConnectionPolicyStallAndSpikeTests: XCTestCase {
    func testTheStallFaultSilencesItsShareOfRequests() {
        var c = SimulatorConfiguration()
        c.faults.requestFaults[.stall] = 0.1
        var stalls = 0
        for id in 0..<200 {
            var p = ConnectionPolicy(configuration: c, connectionID: id)
            for _ in 0..<20 where p.requestValidated(accepted: true, authenticated: true) == .stallConnection { stalls += 1 }
        }
        XCTAssertEqual(Double(stalls) / 4000, 0.1, accuracy: 0.03)
        // A rejected request rolls no dice: a fault replaces only valid answers.
        var p = ConnectionPolicy(configuration: c, connectionID: 1)
        for _ in 0..<100 { XCTAssertNotEqual(p.requestValidated(accepted: false, authenticated: true), .stallConnection) }
    }

    func testLatencySpikesAddTheirMillisecondsToTheirShare() {
        var c = SimulatorConfiguration()
        c.faults.latency = .fixed(milliseconds: 5)
        c.faults.latencySpike = (fraction: 0.25, milliseconds: 1000)
        var p = ConnectionPolicy(configuration: c, connectionID: 1)
        var delays: [Double] = []
        for _ in 0..<2000 {
            guard case let .answer(a) = p.requestValidated(accepted: true, authenticated: true) else { return XCTFail() }
            delays.append(a.delayMilliseconds)
        }
        XCTAssertEqual(Set(delays), [5, 1005])
        XCTAssertEqual(Double(delays.filter { $0 > 5 }.count) / 2000, 0.25, accuracy: 0.04)
    }

    func testTheClockStepsForwardOnceItsTimeHasCome() {
        final class Box: @unchecked Sendable { var t = 1000.0 }
        let box = Box()
        let stepped = WallClock { box.t }.steppedForward(by: 3700, after: 60)
        XCTAssertEqual(stepped.now(), 1000)
        box.t = 1059
        XCTAssertEqual(stepped.now(), 1059)
        box.t = 1060
        XCTAssertEqual(stepped.now(), 1060 + 3700)
    }
}

/// The capacity model: one server per connection, first come first served, shedding when overloaded.
final class ConnectionPolicyCapacityTests: XCTestCase {
    func testRequestsQueueBehindEachOtherAtTheServiceRatePlusTheRoundTrip() {
        var c = SimulatorConfiguration()
        c.faults.capacity = .init(perConnectionPerSecond: 1000)
        c.faults.roundTripMilliseconds = 20
        var p = ConnectionPolicy(configuration: c, connectionID: 1)
        var delays: [Double] = [], queued: [Double] = []
        for _ in 0..<5 {
            guard case let .answer(a) = p.requestValidated(accepted: true, authenticated: true, now: 0) else { return XCTFail() }
            delays.append(a.delayMilliseconds)
            queued.append(a.queuedMilliseconds)
        }
        XCTAssertEqual(delays, [21, 22, 23, 24, 25], "1 ms of service each, queued, plus 20 ms of network")
        XCTAssertEqual(queued, [0, 1, 2, 3, 4], "the wait for the server alone: what the simulator counts as its queue")
        // Once the queue has drained, a request waits only for its own service.
        guard case let .answer(later) = p.requestValidated(accepted: true, authenticated: true, now: 1_000_000_000) else { return XCTFail() }
        XCTAssertEqual(later.delayMilliseconds, 21)
    }

    func testOverloadShedsItsShareWith503AtOnce() {
        var c = SimulatorConfiguration()
        c.faults.capacity = .init(perConnectionPerSecond: 100, overloadAfterMilliseconds: 50, overloadServiceUnavailableFraction: 1)
        var p = ConnectionPolicy(configuration: c, connectionID: 1)
        var shed = 0, queued = 0
        for _ in 0..<20 {
            guard case let .answer(a) = p.requestValidated(accepted: true, authenticated: true, now: 0) else { return XCTFail() }
            if a.injected == .serviceUnavailable {
                shed += 1
                XCTAssertEqual(a.delayMilliseconds, 0, "shed at once, taking no service time")
            } else {
                queued += 1
            }
        }
        XCTAssertEqual(queued, 6, "10 ms each: waits of 0…50 ms are taken, past 50 ms shed")
        XCTAssertEqual(shed, 14)
    }
}
