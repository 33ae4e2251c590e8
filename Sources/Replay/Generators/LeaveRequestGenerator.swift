import APNsCore

/// Writes a synthetic leave-request recording with a realistic shape: a morning peak of new
/// requests, Live Activity tokens that mostly come with the request but sometimes arrive minutes later
/// (or never), staff decisions spread over the day, and names and reasons that exercise JSON escaping
/// (quotes, backslashes, emoji, non-Latin scripts). Same seed, same bytes.
public struct LeaveRequestGenerator {
    public var requests: Int
    public var seed: UInt64
    /// Midnight UTC of the recorded day, epoch ms. Default 2025-04-16.
    public var dayStartMillis: Int64 = 1_744_761_600_000
    /// Share of requests whose token arrives in a later `leave.token` event. Default 0.25.
    public var lateTokenShare = 0.25
    /// Share of requests that never get a token (their status pushes end as not sent: no token). Default 0.04.
    public var noTokenShare = 0.04

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
        var rng = SplitMix64(seed: seed)
        var events: [(at: Int64, order: Int, line: [UInt8])] = []
        events.reserveCapacity(requests * 4)
        var order = 0
        func add(_ at: Int64, _ build: (inout NDJSONLine) -> Void) {
            var line = NDJSONLine()
            line.string("at", Timestamp.iso8601(millis: at))
            build(&line)
            events.append((at, order, line.line))
            order += 1
        }
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
            add(created) { l in
                l.string("kind", "leave.created"); l.int("request_id", id); l.int("student_id", studentID)
                l.string("student_name", student); l.string("request_type", type); l.string("reason", reason)
                l.string("activity_id", activityID); l.string("token", tokenMode == 2 ? token : nil)
            }
            if tokenMode == 1 {
                let late = created + Int64(30_000 + rng.unit() * 600_000)
                add(late) { l in
                    l.string("kind", "leave.token"); l.int("request_id", id); l.string("activity_id", activityID); l.string("token", token)
                }
            }
            var t = created
            func status(_ s: String) {
                t += Int64(60_000 + rng.unit() * 5_400_000)
                let who = rng.pick(Self.staff)
                let staffID = 100 + Int(rng.next() % 20)
                add(t) { l in
                    l.string("kind", "leave.status"); l.int("request_id", id); l.string("status", s)
                    l.int("staff_id", staffID); l.string("staff_name", who)
                }
            }
            if rng.unit() < 0.3 { status("pending") }
            if rng.unit() < 0.7 {
                status("approved")
                if rng.unit() < 0.8 { status("finished") }
            } else {
                status("rejected")
            }
        }
        events.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        for e in events { try emit(e.line) }
    }
}
