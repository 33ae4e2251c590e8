import APNsCore

/// Alert pushes from recorded `notify` events: the backend has already decided who gets what, and each
/// line is one notification to one device token. Two workloads share it, and the workload name
/// decides which notification types a stream may carry:
/// - `cdbl-leave` (the CDBL leave-management app): `LEAVE_APPROVED` is the app's own example; the
///   other types follow the app's leave statuses (SUBMITTED, PENDING, APPROVED, CANCELLED) and the
///   approval chain's rejection.
/// - `ksr-cranes` (the KSR Cranes app): `AppNotification.NotificationType` lists WORK_ENTRY_SUBMITTED,
///   WORK_ENTRY_APPROVED, LEAVE_REQUEST_SUBMITTED, LEAVE_REQUEST_APPROVED "… more cases"; the REJECTED
///   types follow `WorkEntryStatus.rejected`.
///
/// Event: `notify` {token, type, title, body, category?, priority?, target_id?, thread_id?, badge?}.
/// - `priority` is per event, 5 or 10; absent (or null) it is the profile's; any other number is a bad
///   line (`bad_value`).
/// - `type` outside the workload's set, an empty title or body, a token that is not hex (64–200 digits)
///   or a negative badge are bad lines (`bad_value`), named with their line number.
/// - `token` null or empty: the user had no device registered when the event was recorded — a planned
///   push that ends as not sent (`no_token`).
/// - Optional fields that are absent are written as JSON `null` where the template uses them.
public final class NotifyWorkload: WorkloadRules {
    /// The slots a notify template may use.
    public enum Field: String, CaseIterable {
        case type, title, body, category, thread_id, target_id, badge
        /// The event's recorded time, RFC 3339 UTC (the app's `createdAt`).
        case created_at
    }

    /// The notification types each workload name accepts.
    public static let knownTypes: [String: Set<String>] = [
        "cdbl-leave": ["LEAVE_SUBMITTED", "LEAVE_PENDING", "LEAVE_APPROVED", "LEAVE_REJECTED", "LEAVE_CANCELLED"],
        "ksr-cranes": [
            "WORK_ENTRY_SUBMITTED", "WORK_ENTRY_APPROVED", "WORK_ENTRY_REJECTED",
            "LEAVE_REQUEST_SUBMITTED", "LEAVE_REQUEST_APPROVED", "LEAVE_REQUEST_REJECTED",
        ],
    ]

    /// The workload names this type serves.
    public static var workloadNames: [String] { knownTypes.keys.sorted() }

    private let name: String
    private let types: Set<String>
    /// The sorted list, for error messages (built once).
    private let typeList: String
    private var slots: TemplateSlots<Field>
    private let priority: Priority
    private var plan = SinglePlan()

    /// - Parameters:
    ///   - workload: `cdbl-leave` or `ksr-cranes`: decides the accepted types.
    ///   - priority: The profile's priority, used for events without one.
    /// - Throws: `WorkloadError.unknownWorkload` for another name, `WorkloadError.unknownSlot` for a
    ///   template slot that is not a `Field`, `PayloadTemplate.CompileError` if a filled template is not JSON.
    public init(workload: String, template: PayloadTemplate, templateSource: String, priority: Priority) throws {
        guard let types = Self.knownTypes[workload] else { throw WorkloadError.unknownWorkload(workload) }
        slots = try TemplateSlots(template, source: templateSource, workload: workload)
        self.name = workload
        self.types = types
        self.typeList = types.sorted().joined(separator: ", ")
        self.priority = priority
    }

    /// It never broadcasts.
    public var followersNotSubscribed: Int { 0 }

    public func nextPlanned(into push: inout OutgoingPush) -> PullResult? {
        plan.take(into: &push) { slots.render(into: &$0) }
    }

    /// Applies one event: each `notify` plans one push (not sent without a token).
    public func apply(_ record: StreamRecord) throws -> Int {
        let (kind, at, fields, line) = (record.kind, record.at, record.fields, record.line)
        guard kind == "notify" else { throw StreamLineError(line: line, cause: .unknownKind(kind)) }
        func bad(_ field: String, _ why: String) -> StreamLineError {
            StreamLineError(line: line, cause: .badValue(field: field, why: why))
        }
        // Every field is checked before anything is counted, so a bad line plans nothing.
        guard fields.has("token") else { throw StreamLineError(line: line, cause: .missingField("token")) }
        let token = try fields.optionalString("token")
        if let token, !token.isEmpty, !DeviceToken.isValid(token) {
            throw bad("token", "not a device token (hex, an even number of 64–200 digits)")
        }
        let type = try fields.string("type")
        guard types.contains(type) else {
            throw bad("type", "'\(type)' is not a \(name) notification type (\(typeList))")
        }
        let title = try fields.string("title")
        guard !title.isEmpty else { throw bad("title", "empty") }
        let body = try fields.string("body")
        guard !body.isEmpty else { throw bad("body", "empty") }
        let category = try fields.optionalString("category")
        let threadID = try fields.optionalString("thread_id")
        let targetID = try fields.optionalString("target_id")
        let badge = try fields.optionalInt("badge")
        if let badge, badge < 0 { throw bad("badge", "\(badge) is negative") }
        let pushPriority: Priority
        if let p = try fields.optionalInt("priority") {
            switch p {
            case 10: pushPriority = .immediate
            case 5: pushPriority = .powerAware
            default: throw bad("priority", "\(p) is not 5 or 10")
            }
        } else {
            pushPriority = priority
        }

        guard let token, !token.isEmpty else {
            plan.state = .notSent(.noToken, pushPriority)
            return 1
        }
        slots.set(.type, .string(type))
        slots.set(.title, .string(title))
        slots.set(.body, .string(body))
        slots.set(.category, category.map { .string($0) } ?? .null)
        slots.set(.thread_id, threadID.map { .string($0) } ?? .null)
        slots.set(.target_id, targetID.map { .string($0) } ?? .null)
        slots.set(.badge, badge.map { .integer($0) } ?? .null)
        if slots.uses(.created_at) { slots.set(.created_at, .string(Timestamp.iso8601(millis: at))) }
        plan.state = .send(token: token, priority: pushPriority, recordedMillis: at)
        return 1
    }
}
