import APNsCore
@testable import Replay
import Foundation
import TestSupport
import XCTest

/// Temporary files for the stream tests, removed at the end of each test.
enum StreamTestFiles {
    /// Writes `bytes` to a new file under the temporary directory and returns its path; the file
    /// is removed when `test` finishes.
    static func write(_ bytes: [UInt8], for test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let url = try ScratchFolder.make("replay", removedBy: test.addTeardownBlock).appendingPathComponent("s.ndjson")
            try Data(bytes).write(to: url)
            return url.path
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return ""
        }
    }

    static func write(_ text: String, for test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) -> String {
        write(Array(text.utf8), for: test, file: file, line: line)
    }

    /// A path that does not exist.
    static func missingPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("apnsbench-missing-\(UUID().uuidString)").path
    }

    /// Peak resident set size of this process, bytes (Linux reports kilobytes).
    static func peakRSSBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
        #endif
    }
}

/// The `StreamLineError` `body` throws; a test failure (and nil) when it throws none or another error.
func thrownLineError<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> StreamLineError? {
    do {
        _ = try body()
        XCTFail("expected an error", file: file, line: line)
        return nil
    } catch {
        guard let lineError = error as? StreamLineError else {
            XCTFail("not a StreamLineError: \(error)", file: file, line: line)
            return nil
        }
        return lineError
    }
}

/// One step of a stream as the reader tests compare it: a record's line, time and kind, or a bad line's message.
enum StreamStep: Equatable {
    case record(line: Int, at: Int64, kind: String)
    case bad(String)

    /// Every step of `reader` to its end.
    static func readAll(_ reader: EventStreamReader) throws -> [StreamStep] {
        var steps: [StreamStep] = []
        while let event = try reader.next() {
            switch event {
            case let .record(line, at, kind, _): steps.append(.record(line: line, at: at, kind: kind))
            case let .bad(error): steps.append(.bad(error.description))
            }
        }
        return steps
    }
}

/// A small deterministic generator so that randomized tests are reproducible.
typealias StreamTestRandom = SplitMix64

/// A fake run of a workload: its rules wrapped so the ledger sees what each event planned, driven by a
/// `WorkloadDriver` and pulled the way the engine pulls (one `OutgoingPush` reused), every push counted
/// as delivered and every not-sent push by its cause.
final class WorkloadLedger {
    struct Sent {
        var token: String
        var body: String
        var priority: Priority
        var recordedMillis: Int64
        /// The broadcast channel's index (-1: a device push) and the devices it reaches.
        var channel: Int32 = -1
        var reach: Int32 = 1
        /// The push rule that planned it, when the workload names its rules.
        var rule: String?
        /// Its push kind, and the header values it carries itself (read by the engine only for a kind whose
        /// header comes from each push).
        var kind: Int32 = 0
        var collapseID = ""
        var expirationSeconds = -1
        /// Every header value it carries itself.
        var headers = PushHeaderValues()
        /// The body parsed (tests only; the workload never parses payloads).
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var aps: [String: Any] { json["aps"] as? [String: Any] ?? [:] }
        var alert: [String: Any] { aps["alert"] as? [String: Any] ?? [:] }
    }

    /// Sees each event's plan on its way to the driver.
    final class Rules: WorkloadRules {
        let inner: WorkloadRules
        weak var ledger: WorkloadLedger?
        init(_ inner: WorkloadRules) { self.inner = inner }
        func apply(_ record: StreamRecord) throws -> Int {
            let n = try inner.apply(record)
            ledger?.applied.append((record.kind, n))
            return n
        }
        func nextPlanned(into push: inout OutgoingPush) -> PullResult? { inner.nextPlanned(into: &push) }
        var followersNotSubscribed: Int { inner.followersNotSubscribed }
        var lastEventHeldNoRule: Bool { inner.lastEventHeldNoRule }
        var lastPushRule: String? { inner.lastPushRule }
        var pushesByRule: [String: [String: Int]] { inner.pushesByRule }
        var pushRuleNames: [(kind: String, rule: String)] { inner.pushRuleNames }
        var lastPushRuleIndex: Int { inner.lastPushRuleIndex }
        var namesPushRules: Bool { inner.namesPushRules }
        var lastPushFailure: String? { inner.lastPushFailure }
        var pushesAtOwnPriority: Int { inner.pushesAtOwnPriority }
    }

    var applied: [(kind: String, pushes: Int)] = []
    var outcomes: [(outcome: Outcome, priority: Priority)] = []
    var sent: [Sent] = []
    private(set) var driver: WorkloadDriver?

    /// Replays `lines` (written to a stream file of `test`) through `recipe` at priority 10, every line
    /// accounted for.
    static func replay(_ recipe: Recipe, lines: [String], for test: XCTestCase) throws -> WorkloadLedger {
        let ledger = WorkloadLedger()
        ledger.drain(try ledger.driver(RecipeRules(recipe, priority: .immediate),
                                       path: StreamTestFiles.write(lines.joined(separator: "\n") + "\n", for: test), shape: recipe.recordShape))
        ledger.assertBalanced(linesRead: lines.count)
        return ledger
    }

    /// A driver over `rules` and the stream at `path` that this ledger watches.
    func driver(_ rules: WorkloadRules, path: String, badLines: RunConfig.Workload.BadLinePolicy = .skip,
                priority: Priority = .immediate, maxLineBytes: Int = 1 << 20, shape: RecordShape = .standard) throws -> WorkloadDriver {
        let watched = Rules(rules)
        watched.ledger = self
        let reader = try EventStreamReader(path: path, maxLineBytes: maxLineBytes, shape: shape)
        let d = WorkloadDriver(reader: reader, rules: watched, badLines: badLines, priority: priority)
        driver = d
        return d
    }

    /// Takes one result from `driver`, recording it; false at the end.
    @discardableResult
    func pull(_ driver: WorkloadDriver, into push: inout OutgoingPush) -> PullResult {
        let result = driver.next(into: &push)
        switch result {
        case .push:
            sent.append(Sent(token: push.deviceToken, body: String(decoding: push.body, as: UTF8.self),
                             priority: push.priority, recordedMillis: push.recordedMillis, channel: push.channel, reach: push.reach,
                             rule: driver.origin?.rule, kind: push.kind, collapseID: String(decoding: push.headers[APNsHeaders.collapseID].text, as: UTF8.self),
                             expirationSeconds: push.headers[APNsHeaders.expiration].seconds, headers: push.headers))
            outcomes.append((.delivered, push.priority))
        case .notSent(let cause):
            outcomes.append((.notSent(cause), push.priority))
        case .idle, .end:
            break
        }
        return result
    }

    /// Pulls every push from `driver`.
    func drain(_ driver: WorkloadDriver) {
        var push = OutgoingPush(bodyCapacity: 64)
        while pull(driver, into: &push) != .end {}
    }

    /// Bad lines as the driver counted them (the first 100).
    var badLines: [EventTally.BadLine] { driver?.events.badLineSamples ?? [] }
    var events: EventTally { driver?.events ?? EventTally() }
    var eventsRead: Int { events.read }
    var producedPushes: Int { applied.filter { $0.pushes > 0 }.count }
    var stateOnly: Int { applied.filter { $0.pushes == 0 }.count }
    var pushesPlannedByEvents: Int { applied.reduce(0) { $0 + $1.pushes } }
    /// Planned pushes the events announced, plus one per bad line.
    var planned: Int { pushesPlannedByEvents + events.invalidTotal }
    /// Not-sent pushes by cause.
    var notSent: [String: Int] {
        outcomes.reduce(into: [:]) { if case let .notSent(c) = $1.outcome { $0[c.rawValue, default: 0] += 1 } }
    }
    func count(_ outcome: Outcome) -> Int { outcomes.filter { $0.outcome == outcome }.count }

    /// Events: produced + state only + invalid = read, and the driver's tally agrees with what the rules
    /// said; pushes: one outcome per planned push, plus one per bad line.
    func assertBalanced(linesRead: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(producedPushes + stateOnly + events.invalidTotal, linesRead, "events", file: file, line: line)
        XCTAssertTrue(events.balanced, "event tally", file: file, line: line)
        XCTAssertEqual(events.read, linesRead, "events read", file: file, line: line)
        XCTAssertEqual(events.expectedPushes, planned, "the tally's planned pushes", file: file, line: line)
        XCTAssertEqual(outcomes.count, planned, "pushes", file: file, line: line)
    }
}
