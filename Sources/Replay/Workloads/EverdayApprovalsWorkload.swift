import APNsCore

/// The Everday approvals workload (seed 004): a kid's `POST /auth/register` creates an unapproved account,
/// and every Parent user is notified — title "Account approval requested", link `/settings/users` — so
/// one registration fans out to every registered parent device.
///
/// Events:
/// - `parent.device` {device_id, push_token, account_id, family_id?}: upserts the device by `device_id` (a
///   new token replaces the old one, which is never pushed to again). State only.
/// - `parent.removed` {device_id}: the device signed out; its token is not used again. State only. A device
///   the stream never registered is a bad line.
/// - `account.registered` {user_id, username, first_name?, last_name?, family_id?}: one alert push to each
///   parent device registered at that moment, in registration order. With no parent device it is one
///   planned push that ends as not sent (`no_recipients`).
///
/// Who "every parent" is: the seed's server is one household, so a registration goes to every parent
/// device. A backend serving many households records `family_id` (an integer) on both events; then a
/// registration with a `family_id` goes to every parent device of that family only, and one without it
/// still goes to every parent device.
///
/// The payload is rendered once per registration and copied into each push of its fan-out; the fan-out's
/// tokens are taken when the event is read, so later events never change a fan-out in progress.
public final class EverdayApprovalsWorkload: ReplayWorkload {
    /// The slots an Everday template may use.
    public enum Field: String, CaseIterable {
        case user_id, username, first_name, last_name
        /// "First Last", or the first name alone, or the username when the account gave no name.
        case display_name
        /// The registration's recorded time, RFC 3339 UTC.
        case registered_at
    }

    /// The groups a parent device follows: every parent device follows `.allParents`; one recorded with a
    /// `family_id` also follows its family.
    enum ParentGroup: Hashable {
        case allParents
        case family(Int)
    }

    private let reader: EventStreamReader
    private let template: PayloadTemplate
    private let priority: Priority
    private let badLines: RunProfile.BadLinePolicy
    private let accounting: EventAccounting
    private let outcomes: OutcomeSink
    private var registry = DeviceDirectory<ParentGroup>()
    /// The template's slot index for each field (nil: the template does not use it).
    private let slotOf: [Field: Int]
    /// Reused per event.
    private var values: [PayloadTemplate.Value]

    /// The fan-out in progress: its payload (rendered once), its tokens, the next one to send.
    private var pendingBody: [UInt8] = []
    private var pendingTokens: [String] = []
    private var pendingNext = 0
    private var pendingRecordedMillis: Int64 = 0

    public private(set) var stopError: StreamLineError?
    public private(set) var readFailure: Error?

    /// Parent devices registered now.
    public var parentDeviceCount: Int { registry.deviceCount }
    /// Tokens replaced by a newer one for the same device so far.
    public var retiredTokens: Int { registry.retiredTokens }

    public init(reader: EventStreamReader, template: PayloadTemplate, templateSource: String, priority: Priority,
                badLines: RunProfile.BadLinePolicy, accounting: EventAccounting, outcomes: OutcomeSink) throws {
        var slotOf: [Field: Int] = [:]
        for (i, name) in template.slotNames.enumerated() {
            guard let field = Field(rawValue: name) else {
                throw WorkloadError.unknownSlot(template: templateSource, slot: name, workload: "everday-approvals",
                                                fields: Field.allCases.map(\.rawValue))
            }
            slotOf[field] = i
        }
        self.reader = reader
        self.template = template
        self.priority = priority
        self.badLines = badLines
        self.accounting = accounting
        self.outcomes = outcomes
        self.slotOf = slotOf
        self.values = Array(repeating: .null, count: template.slotNames.count)
        pendingBody.reserveCapacity(1024)
        try template.validate(sample: template.slotKinds.map { $0 == .integer ? .integer(1) : .string("x") }, source: templateSource)
    }

    public func next(into push: inout OutgoingPush) -> Bool {
        if takePending(into: &push) { return true }
        while stopError == nil, readFailure == nil {
            let event: EventStreamReader.Event?
            do { event = try reader.next() } catch {
                // The file itself failed (I/O), not a line: the run cannot go on.
                readFailure = error
                return false
            }
            guard let event else { return false }
            switch event {
            case let .bad(error):
                if handleBad(error, kind: nil) { continue } else { return false }
            case let .record(line, at, kind, fields):
                do {
                    try apply(kind: kind, at: at, fields: fields, line: line)
                    if takePending(into: &push) { return true }
                } catch let error as StreamLineError {
                    if handleBad(error, kind: kind) { continue } else { return false }
                } catch {
                    if handleBad(StreamLineError(line: line, cause: .badValue(field: "?", why: "\(error)")), kind: kind) { continue } else { return false }
                }
            }
        }
        return false
    }

    /// The rest of a fan-out in progress when the run stopped: planned, never sent.
    public func abandon() {
        while pendingNext < pendingTokens.count {
            pendingNext += 1
            outcomes.record(.notSent(.runStopped), priority: priority, intended: 0, sent: 0, completed: 0)
        }
    }

    /// Fills `push` with the next push of the fan-out in progress, if any.
    private func takePending(into push: inout OutgoingPush) -> Bool {
        guard pendingNext < pendingTokens.count else { return false }
        push.deviceToken = pendingTokens[pendingNext]
        pendingNext += 1
        push.body.removeAll(keepingCapacity: true)
        push.body.append(contentsOf: pendingBody)
        push.priority = priority
        push.intendedNanos = 0
        push.recordedMillis = pendingRecordedMillis
        return true
    }

    /// Counts a bad line; returns true to go on (policy skip), false to stop.
    private func handleBad(_ error: StreamLineError, kind: String?) -> Bool {
        accounting.badLine(error, kind: kind)
        outcomes.record(.notSent(.badLine), priority: priority, intended: 0, sent: 0, completed: 0)
        if badLines == .stop { stopError = error; return false }
        return true
    }

    /// Applies one event; a registration leaves its fan-out in the pending queue.
    private func apply(kind: String, at: Int64, fields: FlatJSONObject, line: Int) throws {
        func bad(_ field: String, _ why: String) -> StreamLineError {
            StreamLineError(line: line, cause: .badValue(field: field, why: why))
        }
        switch kind {
        case "parent.device":
            let deviceID = try fields.string("device_id")
            guard !deviceID.isEmpty else { throw bad("device_id", "empty") }
            let token = try fields.string("push_token")
            guard DeviceToken.isValid(token) else { throw bad("push_token", "not a device token (hex, an even number of 64–200 digits)") }
            _ = try fields.int("account_id")
            let family = try fields.optionalInt("family_id")
            registry.upsert(deviceID: deviceID, token: token, groups: family.map { [.allParents, .family($0)] } ?? [.allParents])
            accounting.eventApplied(kind: kind, pushes: 0)

        case "parent.removed":
            let deviceID = try fields.string("device_id")
            guard registry.device(deviceID) != nil else {
                throw bad("device_id", "'\(deviceID)' is not a registered parent device")
            }
            registry.remove(deviceID: deviceID)
            accounting.eventApplied(kind: kind, pushes: 0)

        case "account.registered":
            let userID = try fields.int("user_id")
            let username = try fields.string("username")
            guard !username.isEmpty else { throw bad("username", "empty") }
            let first = try fields.optionalString("first_name").flatMap { $0.isEmpty ? nil : $0 }
            let last = try fields.optionalString("last_name").flatMap { $0.isEmpty ? nil : $0 }
            let family = try fields.optionalInt("family_id")

            pendingTokens.removeAll(keepingCapacity: true)
            pendingNext = 0
            for id in registry.followers(of: family.map { .family($0) } ?? .allParents) {
                if let device = registry.device(id) { pendingTokens.append(device.token) }
            }
            guard !pendingTokens.isEmpty else {
                accounting.eventApplied(kind: kind, pushes: 1)
                outcomes.record(.notSent(.noRecipients), priority: priority, intended: 0, sent: 0, completed: 0)
                return
            }
            accounting.eventApplied(kind: kind, pushes: pendingTokens.count)
            set(.user_id, .integer(userID))
            set(.username, .string(username))
            set(.first_name, first.map { .string($0) } ?? .null)
            set(.last_name, last.map { .string($0) } ?? .null)
            if slotOf[.display_name] != nil {
                let display: String
                switch (first, last) {
                case let (f?, l?): display = f + " " + l
                case let (f?, nil): display = f
                case let (nil, l?): display = l
                case (nil, nil): display = username
                }
                set(.display_name, .string(display))
            }
            if slotOf[.registered_at] != nil { set(.registered_at, .string(Timestamp.iso8601(millis: at))) }
            template.render(into: &pendingBody, values: values)
            pendingRecordedMillis = at

        default:
            throw StreamLineError(line: line, cause: .unknownKind(kind))
        }
    }

    @inline(__always)
    private func set(_ field: Field, _ value: PayloadTemplate.Value) {
        if let i = slotOf[field] { values[i] = value }
    }
}
