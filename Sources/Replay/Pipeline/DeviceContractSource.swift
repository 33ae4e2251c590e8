import APNsCore
import DeviceContract

/// The device contract, where pushes are planned: every Live Activity push's payload, as built, is checked
/// against its workload's ActivityKit model (``PayloadCheck/checkAsSent(payload:)``: `content-state` for an
/// update or end, `attributes` too for a start, the event read from `aps.event`). A push that would not
/// decode is still sent unchanged; it carries the index of its failures (``OutgoingPush/contractFailure``),
/// so the recorder that sees it delivered counts it as delivered but not decodable (``ContractFindings``).
///
/// A stage of the run's pipeline on the producer's thread, before pacing: the engine's thread never checks.
/// Each check scans the payload once (about a microsecond for a leave-request update in a release build).
public final class DeviceContractSource: PushSource {
    private let upstream: PushSource
    /// The check for each push kind (a mix's part); nil where the part names no model.
    private let checks: [PayloadCheck?]
    /// What the checks found so far; read it after the run.
    public private(set) var findings = ContractFindings()

    /// - Parameter checks: by ``OutgoingPush/kind``: the part's check, or nil for a part that is not checked.
    public init(_ upstream: PushSource, checks: [PayloadCheck?]) {
        self.upstream = upstream
        self.checks = checks
        findings.uncheckedParts = checks.compactMap { $0 }.flatMap { check in
            check.model.unchecked.map { "\(check.model.attributesTypeName): \($0)" }
        }
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        let result = upstream.next(into: &push)
        guard case .push = result else { return result }
        // The buffers are reused: every push handed on says where it stands.
        push.contractFailure = -1
        push.contractSample = -1
        let kind = Int(push.kind)
        guard kind >= 0, kind < checks.count, let check = checks[kind] else { return result }
        let verdict = check.checkAsSent(payload: push.body)
        let failures = verdict.failures
        var partly = false
        if case .checkedPartly = verdict { partly = true }
        if failures.isEmpty {
            if case .noEvent = verdict { findings.recordNotChecked() } else { findings.recordDecodes(partly: partly) }
            return result
        }
        let marks = findings.recordFailing(keys: Self.keys(failures), partly: partly) {
            var event: String?
            if case .checked(let e, _) = verdict { event = e.rawValue }
            if case .checkedPartly(let e, _) = verdict { event = e.rawValue }
            return ContractFindings.Sample(
                token: DeviceToken.redacted(push.deviceToken), event: event, failures: failures.map(\.description),
                payload: Redaction.sanitize(String(decoding: push.body, as: UTF8.self), limit: ContractFindings.payloadExcerptLimit),
                headers: ContractFindings.Sample.headers(of: push))
        }
        push.contractFailure = marks.set
        push.contractSample = marks.sample
        return result
    }

    public func abandon() { upstream.abandon() }

    /// One key per distinct `path: reason`, in the order found; array places are written `[]`, so every
    /// element failing the same way is one key.
    public static func keys(_ failures: [DecodeFailure]) -> [String] {
        var keys: [String] = []
        for failure in failures {
            let key = "\(withoutPlaces(failure.path.isEmpty ? "payload" : failure.path)): \(failure.reason.rawValue)"
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// `content-state.stops[12].name` → `content-state.stops[].name`.
    static func withoutPlaces(_ path: String) -> String {
        guard path.contains("[") else { return path }
        var out = ""
        var inPlace = false
        for ch in path {
            if ch == "[" { inPlace = true; out.append(ch) } else if ch == "]" { inPlace = false; out.append(ch) } else if !inPlace { out.append(ch) }
        }
        return out
    }
}
