import APNsCore

/// Writes a synthetic leave-request recording with a realistic shape: a morning peak of new
/// requests, Live Activity tokens that mostly come with the request but sometimes arrive minutes later
/// (or never), staff decisions spread over the day, and names and reasons that exercise JSON escaping
/// (quotes, backslashes, emoji, non-Latin scripts). Same seed, same bytes.
///
/// Two forms of the same events (same seed: same values, times and order): `.events`, lines of
/// kinds `leave.created`, `leave.token` and `leave.status`; and `.api`, the app's own API calls as
/// a server middleware would log them (`POST /api/leave-requests`, `PUT
/// /api/leave-requests/:requestId/live-activity`, `PUT /api/leave-requests/:requestId/status`, with
/// the app's snake_case body fields). See `LeaveEvent` for both. Where the app's API says nothing,
/// the API form takes the usual REST shape: the creation is answered 201 Created with the app's
/// `{"success": true, "request": {"id", ...}}` body, and only the creation's answer is logged.
public struct LeaveRequestGenerator {
    /// How each event is written.
    public enum Form: String, Sendable, CaseIterable {
        /// `{"at", "kind": "leave.created" | "leave.token" | "leave.status", ...}`.
        case events
        /// `{"at", "method", "path", "body", "response"?}`: the HTTP call that caused the event.
        case api
    }


    public var requests: Int
    public var seed: UInt64
    /// Midnight UTC of the recorded day, epoch ms. Default 2025-04-16.
    public var dayStartMillis: Int64 = 1_744_761_600_000
    /// Share of requests whose token arrives in a later `leave.token` event. Default 0.25.
    public var lateTokenShare = 0.25
    /// Share of requests that never get a token (their status pushes end as not sent: no token). Default 0.04.
    public var noTokenShare = 0.04
    /// How each event is written. Default `.events`.
    public var form = Form.events

    public init(requests: Int, seed: UInt64) {
        self.requests = requests
        self.seed = seed
    }

    static let students = [
        "John Doe", "John \"JD\" Doe", "Zoë O'Brien", "Nguyễn Văn An", "Trần Thị Bích", "李小龍", "王芳",
        "Ахмед Петров", "Ольга Смирнова", "محمد علي", "שרה כהן", "Back\\Slash Kid", "Sam 🎒 Lee", "Mia 👩‍🎓 Park",
        "José Álvarez", "Søren Kierkegård", "Aarav शर्मा", "Kim Min-jun 김민준", "Tab\tName", "Emma Smith",
    ]
    static let staff = ["Jane Smith", "Mr. \"Coach\" Brown", "Lê Thị Hoa", "Дмитрий Иванов", "佐藤 花子", "Ms. O'Neil 🍎"]
    static let types = ["early", "medical", "absence"]
    static let reasons: [String?] = [
        "Doctor appointment", "Doctor's appointment", "Family \"emergency\"", "Dentist 🦷", "Khám bệnh định kỳ",
        "Семейные обстоятельства", "家庭事务", "Path C:\\school\\notes", "Sports competition 🏆", nil,
    ]

    /// Generates the recording and hands it out line by line (each with its newline), in time order.
    public func write(_ emit: ([UInt8]) throws -> Void) rethrows {
        for event in events() { try emit(line(event)) }
    }

    /// The recording's events, in time order (equal times in the order they were made).
    public func events() -> [LeaveEvent] {
        var rng = SplitMix64(seed: seed)
        var events: [(order: Int, event: LeaveEvent)] = []
        events.reserveCapacity(requests * 4)
        func add(_ event: LeaveEvent) { events.append((events.count, event)) }
        for i in 0..<requests {
            let id = 1000 + i
            // Morning peak: most requests between 07:00 and 09:00, the rest through the school day.
            let minute = rng.unit() < 0.7 ? 420 + rng.unit() * 120 : 420 + rng.unit() * 540
            let created = dayStartMillis + Int64(minute * 60_000)
            let activityID = rng.uuid()
            let token = rng.hex(bytes: 80)  // 160 hex characters, like a Live Activity token
            let roll = rng.unit()
            let tokenMode = roll < noTokenShare ? 0 : (roll < noTokenShare + lateTokenShare ? 1 : 2)  // 0 none, 1 late, 2 at creation
            let student = rng.pick(Self.students)
            let studentID = 1000 + Int(rng.next() % 9000)
            let type = rng.pick(Self.types)
            let reason = rng.pick(Self.reasons)
            add(.created(LeaveEvent.Created(
                at: created, requestID: id, studentID: studentID, studentName: student, requestType: type,
                reason: reason, activityID: activityID, token: tokenMode == 2 ? token : nil)))
            if tokenMode == 1 {
                let late = created + Int64(30_000 + rng.unit() * 600_000)
                add(.token(LeaveEvent.Token(at: late, requestID: id, activityID: activityID, token: token)))
            }
            var t = created
            func status(_ s: String) {
                t += Int64(60_000 + rng.unit() * 5_400_000)
                let who = rng.pick(Self.staff)
                let staffID = 100 + Int(rng.next() % 20)
                add(.status(LeaveEvent.Status(at: t, requestID: id, status: s, staffID: staffID, staffName: who)))
            }
            if rng.unit() < 0.3 { status("pending") }
            if rng.unit() < 0.7 {
                status("approved")
                if rng.unit() < 0.8 { status("finished") }
            } else {
                status("rejected")
            }
        }
        events.sort { ($0.event.at, $0.order) < ($1.event.at, $1.order) }
        return events.map(\.event)
    }

    /// One event as a line of the chosen `form`, with its newline.
    public func line(_ event: LeaveEvent) -> [UInt8] {
        switch form {
        case .events: return event.eventLine()
        case .api: return event.apiLine()
        }
    }
}
