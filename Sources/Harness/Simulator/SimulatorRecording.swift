import APNsCore
import DeviceDelivery
import APNsSimulator
import DeviceContract
import Foundation
import NIOCore
import Replay
import Reporting

/// What a standalone simulator received, for its report (`apnsbench simulate --report`): a request log
/// per connection, each counting on its own event loop without a lock (a `RunRecorder`, the events by push
/// type, the requests by class, Live Activity pushes per token), merged once the simulator has stopped.
/// Only the device contract's findings are shared, behind a lock, and only Live Activity pushes with a
/// model take it.
public final class SimulatorRecording: RequestObserver, @unchecked Sendable {
    let startNanos: UInt64
    private let check: PayloadCheck?
    /// The model file the check was read from, named in the report's configuration.
    private(set) var modelFile: RunConfig.ActivityKitModelFile?
    private let lock = NSLock()
    private var logs: [ConnectionLog] = []
    private var findings = ContractFindings()
    private var wouldNotDecode = WouldNotDecodeTally()
    /// The device model's parameters when the simulator's configuration has `device:` (set before it starts),
    /// and the wall clock at `startNanos`, which the model's times count on.
    var deviceModel: DeviceDeliveryParameters?
    let startEpochMillis = Int64(Date().timeIntervalSince1970 * 1000)

    /// - Parameter check: the device contract for Live Activity payloads (`--activity-model`), or nil.
    public init(check: PayloadCheck?, startNanos: UInt64 = NIODeadline.now().uptimeNanoseconds) {
        self.check = check
        self.startNanos = startNanos
    }

    /// With the device contract of an ActivityKit model file (`simulate --activity-model`), under the
    /// checker's default date strategy; a file that cannot be read or parsed is bad input naming it.
    public convenience init(activityModel path: String, attributesType: String?) throws {
        let (model, sha256) = try ActivityKitModelLoader.read(path: path, attributesType: attributesType, profile: "--activity-model", line: nil)
        self.init(check: PayloadCheck(model: model))
        modelFile = RunConfig.ActivityKitModelFile(path: path, sha256: sha256, attributesType: attributesType)
    }

    public func connectionOpened(id: Int) -> ConnectionRequestLog {
        let log = ConnectionLog(recording: self)
        lock.withLock { logs.append(log) }
        return log
    }

    /// The device contract's verdict on a Live Activity payload: counted in the shared findings, and in
    /// the delivered ones that would not decode when it was answered 200.
    func checkContract(_ payload: ByteBuffer, token: Substring?, delivered: Bool) {
        guard let check else { return }
        let verdict = check.checkAsSent(payload: payload.readableBytesView)
        let failures = verdict.failures
        var partly = false, event: String?
        switch verdict {
        case let .checked(e, _): event = e.rawValue
        case let .checkedPartly(e, _): (event, partly) = (e.rawValue, true)
        default: break
        }
        lock.withLock {
            if failures.isEmpty {
                if case .noEvent = verdict { findings.recordNotChecked() } else { findings.recordDecodes(partly: partly) }
                return
            }
            let marks = findings.recordFailing(keys: DeviceContractSource.keys(failures), partly: partly) {
                ContractFindings.Sample(token: DeviceToken.redacted(String(token ?? "")), event: event, failures: failures.map(\.description),
                                        payload: Redaction.sanitize(String(buffer: payload), limit: ContractFindings.payloadExcerptLimit))
            }
            if delivered { wouldNotDecode.record(set: marks.set, sample: marks.sample) }
        }
    }

    /// Every connection's counts, merged. Call once the simulator has stopped (its event loops are gone).
    /// The device side of what was accepted, when the configuration has `device:`: every connection's 200s in
    /// the order they arrived, through the device model.
    func deviceSection() -> RunReport.DeviceDelivery? {
        guard let parameters = deviceModel else { return nil }
        var pushes = lock.withLock { logs }.flatMap(\.devicePushes)
        pushes = pushes.indices.sorted { pushes[$0].atMillis != pushes[$1].atMillis ? pushes[$0].atMillis < pushes[$1].atMillis : $0 < $1 }
            .map { pushes[$0] }
        return DeviceDeliveryTally(pushes: pushes, parameters: parameters).section
    }

    func merged() -> (recorder: RunRecorder, events: EventTally, classes: [RequestKey: Int], perToken: [Substring: TokenCount], sends: SendTally) {
        let recorder = RunRecorder()
        recorder.start(atNanos: startNanos)
        var events = EventTally(), classes: [RequestKey: Int] = [:], perToken: [Substring: TokenCount] = [:], sends = SendTally()
        for log in lock.withLock({ logs }) {
            log.foldOpenStreams()
            recorder.merge(log.recorder)
            events = events + log.events
            classes.merge(log.classes, uniquingKeysWith: +)
            sends = sends + log.sends
            perToken.merge(log.perToken) { TokenCount(pushes: $0.pushes + $1.pushes, overruns: $0.overruns + $1.overruns) }
        }
        return (recorder, events, classes, perToken, sends)
    }

    /// The most requests awaiting an answer at once on one connection (after ``merged()``).
    var mostOpenStreams: Int { lock.withLock { logs }.map(\.mostOpenStreams).max() ?? 0 }

    var contract: (findings: ContractFindings, delivered: WouldNotDecodeTally)? {
        check == nil ? nil : lock.withLock { (findings, wouldNotDecode) }
    }

    struct RequestKey: Hashable {
        var pushType: String, topic: String, priority: String, answer: String
    }

    struct TokenCount {
        var pushes = 0, overruns = 0
    }

    /// One connection's counts, touched on its event loop only.
    final class ConnectionLog: ConnectionRequestLog {
        let recorder = RunRecorder()
        var events = EventTally()
        var classes: [RequestKey: Int] = [:]
        var perToken: [Substring: TokenCount] = [:]
        /// The requests by class and the headers they set.
        var sends = SendTally()
        /// The pushes answered 200, for the device model (when it is on).
        var devicePushes: [DeviceDeliveryPush] = []
        /// Each answered request's arrival and answer, until ``foldOpenStreams()`` counts the most open at once.
        private var arrivals: [UInt64] = [], answers: [UInt64] = []
        private(set) var mostOpenStreams = 0
        private var tape = JSONTape()
        private unowned let recording: SimulatorRecording

        init(recording: SimulatorRecording) {
            self.recording = recording
            recorder.start(atNanos: recording.startNanos)
        }

        /// The most requests that had arrived and were not yet answered at one moment: the streams the sender
        /// kept open (a request that got no answer is not counted). Called once the connection is done.
        func foldOpenStreams() {
            let a = arrivals.sorted(), b = answers.sorted()
            var i = 0, j = 0, open = 0
            while i < a.count {
                if j < b.count, b[j] <= a[i] { open -= 1; j += 1 } else { open += 1; mostOpenStreams = max(mostOpenStreams, open); i += 1 }
            }
            arrivals = []
            answers = []
        }

        func answered(_ r: AnsweredRequest) {
            if r.status != 0 {
                arrivals.append(r.arrivalNanos)
                answers.append(max(r.answerNanos, r.arrivalNanos))
            }
            let answer = r.status == 200 ? "200" : (r.reason ?? String(r.status))
            classes[RequestKey(pushType: r.pushType ?? "-", topic: r.topic ?? "-", priority: r.priority ?? "-", answer: answer), default: 0] += 1
            events.record(kind: r.pushType ?? "-", .producedPushes(1))
            sends.record(.init(pushType: r.pushType ?? "-", topic: r.topic ?? "-", priority: r.priority ?? "-"),
                         expiration: r.expiration != nil, collapseID: r.collapseID)
            let outcome: Outcome
            switch r.status {
            case 200: outcome = .delivered
            case 0: outcome = .failed(TransportError(code: -1, key: "no_answer"))
            default:
                // The status answered, also for a reason the client library does not list (the simulator's own).
                let known = Reason(rawValue: answer)
                outcome = .rejected(known.status == r.status ? known : Reason(rawValue: answer, status: r.status, handling: known.handling))
            }
            let priority = r.priority.flatMap { Int($0) }.flatMap(Priority.init(rawValue:)) ?? .immediate
            recorder.record(outcome, priority: priority, intended: r.arrivalNanos, sent: r.arrivalNanos,
                            completed: r.status == 0 ? 0 : max(r.answerNanos, r.arrivalNanos))
            if r.status == 200, recording.deviceModel != nil { keepForDevice(r, priority: priority) }
            guard r.pushType == "liveactivity" else { return }
            if priority == .immediate, let token = r.deviceToken {
                perToken[token, default: TokenCount()].pushes += 1
                if r.budgetOverrun { perToken[token, default: TokenCount()].overruns += 1 }
            }
            if let payload = r.payload { recording.checkContract(payload, token: r.deviceToken, delivered: r.status == 200) }
        }

        /// An accepted push as the device model reads it, on the wall clock (a sender's pushes are sent when meant).
        private func keepForDevice(_ r: AnsweredRequest, priority: Priority) {
            guard let token = r.deviceToken else { return }
            let at = recording.startEpochMillis + Int64((r.arrivalNanos &- recording.startNanos) / 1_000_000)
            var push = DeviceDeliveryPush(token: String(token), atMillis: at, priority: priority,
                                  pushType: r.pushType.flatMap(PushType.init(rawValue:)) ?? .alert, collapseID: r.collapseID)
            if let e = r.expiration.flatMap({ Int64($0) }) { push.expiration = e == 0 ? .immediately : .at(e * 1000) }
            if let payload = r.payload {
                payload.withUnsafeReadableBytes { raw in
                    DeviceDeliveryFeed.readActivityKeys(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count),
                                                tape: &tape, into: &push)
                }
            }
            devicePushes.append(push)
        }
    }
}
