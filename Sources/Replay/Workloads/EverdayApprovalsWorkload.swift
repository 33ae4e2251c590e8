import APNsCore

/// The Everday approvals workload (the Everday family app): a kid's `POST /auth/register` creates an unapproved account,
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
/// Who "every parent" is: the Everday server serves one household, so a registration goes to every parent
/// device. A backend serving many households records `family_id` (an integer) on both events; then a
/// registration with a `family_id` goes to every parent device of that family only, and one without it
/// still goes to every parent device.
///
/// The payload is rendered once per registration and copied into each push of its fan-out; the fan-out's
/// tokens are taken when the event is read, so later events never change a fan-out in progress.
public final class EverdayApprovalsWorkload: WorkloadRules {
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

    private var slots: TemplateSlots<Field>
    private let priority: Priority
    private var registry = DeviceDirectory<ParentGroup>()

    /// The fan-out in progress: its payload (rendered once), its tokens, the next one to send.
    private var pendingBody: [UInt8] = []
    private var pendingTokens: [String] = []
    private var pendingNext = 0
    private var pendingRecordedMillis: Int64 = 0
    /// A registration no parent device could receive.
    private var noRecipients = SinglePlan()

    /// Parent devices registered now.
    public var parentDeviceCount: Int { registry.deviceCount }
    /// Tokens replaced by a newer one for the same device so far.
    public var retiredTokens: Int { registry.retiredTokens }

    /// - Parameter priority: `apns-priority` of every push.
    public init(template: PayloadTemplate, templateSource: String, priority: Priority) throws {
        slots = try TemplateSlots(template, source: templateSource, workload: "everday-approvals")
        self.priority = priority
        pendingBody.reserveCapacity(1024)
    }

    /// It never broadcasts.
    public var followersNotSubscribed: Int { 0 }

    public func nextPlanned(into push: inout OutgoingPush) -> PullResult? {
        if let planned = noRecipients.take(into: &push, render: { _ in }) { return planned }
        return takePending(into: &push) ? .push : nil
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

    /// Applies one event; a registration leaves its fan-out in the pending queue and returns its size.
    public func apply(_ record: StreamRecord) throws -> Int {
        let (kind, at, fields, line) = (record.kind, record.at, record.fields, record.line)
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
            return 0

        case "parent.removed":
            let deviceID = try fields.string("device_id")
            guard registry.device(deviceID) != nil else {
                throw bad("device_id", "'\(deviceID)' is not a registered parent device")
            }
            registry.remove(deviceID: deviceID)
            return 0

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
                noRecipients.state = .notSent(.noRecipients, priority)
                return 1
            }
            slots.set(.user_id, .integer(userID))
            slots.set(.username, .string(username))
            slots.set(.first_name, first.map { .string($0) } ?? .null)
            slots.set(.last_name, last.map { .string($0) } ?? .null)
            if slots.uses(.display_name) {
                let display: String
                switch (first, last) {
                case let (f?, l?): display = f + " " + l
                case let (f?, nil): display = f
                case let (nil, l?): display = l
                case (nil, nil): display = username
                }
                slots.set(.display_name, .string(display))
            }
            if slots.uses(.registered_at) { slots.set(.registered_at, .string(Timestamp.iso8601(millis: at))) }
            slots.render(into: &pendingBody)
            pendingRecordedMillis = at
            return pendingTokens.count

        default:
            throw StreamLineError(line: line, cause: .unknownKind(kind))
        }
    }
}
