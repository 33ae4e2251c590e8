import APNsCore

/// Writes a synthetic CDBL leave-management recording: `notify` events for leave requests
/// moving through the approval chain over one Sunday–Thursday working week in Dhaka (UTC+6).
///
/// Shape: requests are submitted mostly in a morning peak (09:00–11:00 local) and an afternoon peak
/// (14:00–16:00); each notifies the employee's department head (`LEAVE_SUBMITTED`, priority 5), some are
/// forwarded to HR (`LEAVE_PENDING` to the employee, priority 5), most are decided within hours — decisions
/// made after 18:00 wait for the next morning's peak — (`LEAVE_APPROVED` / `LEAVE_REJECTED` to the
/// employee, priority 10), and a few are cancelled by the employee (`LEAVE_CANCELLED` to the department
/// head, priority 5). `badge` is the recipient's unread count (the CDBL server's `unreadCount`); a share of
/// employees read notifications in Bengali; names, reasons and remarks carry quotes, backslashes, emoji
/// and Bengali script. A small share of employees (never approvers) have no device registered (`token: null`).
///
/// Exactly `events` lines, in time order. Same seed, same bytes.
public struct CDBLLeaveGenerator {
    public var events: Int
    public var seed: UInt64
    /// Midnight of Sunday 2025-02-02 in Dhaka (UTC+6), epoch ms.
    public var weekStartMillis: Int64 = 1_738_432_800_000
    /// Share of employees with no device token (their pushes end as not sent: no token). Default 0.02.
    public var noTokenShare = 0.02
    /// Share of employees whose notifications are in Bengali. Default 0.2.
    public var bengaliShare = 0.2

    public init(events: Int, seed: UInt64) {
        self.events = events
        self.seed = seed
    }

    static let employeeNames = [
        "Md. Rahim Uddin", "Fatema \"Mim\" Akter", "তানভীর হাসান", "Nusrat Jahan 🌸", "Anika O'Neil D'Costa",
        "Sabbir Back\\slash Ahmed", "শারমিন সুলতানা", "Kamrul Islam", "Tasnim 🇧🇩 Chowdhury", "Arif Hossain",
        "Mahmudul \"Rony\" Haque", "Shirin Akhter", "রুবিনা ইয়াসমিন", "Imran Khan", "Farhana Rahman",
    ]
    static let approverNames = ["Dr. Ayesha Siddiqua", "Mr. Kabir \"KB\" Ahmed", "মোহাম্মদ আলী", "Nasreen Haque 🙂"]
    static let leaveTypes = [("CASUAL", "casual", "নৈমিত্তিক"), ("MEDICAL", "medical", "চিকিৎসা"), ("EARNED", "earned", "অর্জিত")]
    static let reasons = [
        "Family event", "Medical treatment", "Sister's wedding 💍", "Eid-ul-Fitr with family 🌙", "পারিবারিক কারণে",
        "Doctor said \"rest for 3 days\"", "Visa appointment (Gulshan-2)", "Certificate at \\\\hr-share\\medical\\2025",
    ]
    static let remarks = [
        "Approved", "Approved ✅", "অনুমোদিত", "Enjoy the \"long\" weekend 🎉", "Get well soon 🙏",
        "Please upload the certificate (C:\\Scans\\ml.pdf)", "Insufficient balance", "Peak period — please reschedule",
    ]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    struct Person {
        var name: String
        var token: String?
        var bengali: Bool
        var unread = 0
    }

    /// Generates the recording and hands it out line by line (each with its newline), in time order.
    /// Length: one pass of random draws in a fixed order, which makes the shipped recording byte for byte;
    /// its helpers are closures over the generator's random state and its lines, and `apnsbench scale`, not a
    /// change here, is how a recording grows.
    public func write(_ emit: ([UInt8]) throws -> Void) rethrows {
        var rng = SplitMix64(seed: seed)
        /// Approvers use the app every day: they always have a device.
        func person(_ name: String, approver: Bool = false) -> Person {
            let token: String? = !approver && rng.unit() < noTokenShare ? nil : rng.hex(bytes: 32)
            return Person(name: name, token: token, bengali: rng.unit() < bengaliShare)
        }
        var staff = (0..<max(40, events / 5)).map { _ in person(rng.pick(Self.employeeNames)) }
        var approvers = (0..<max(4, events / 80)).map { _ in person(rng.pick(Self.approverNames), approver: true) }

        var out: [(at: Int64, order: Int, line: [UInt8])] = []
        out.reserveCapacity(events + 4)
        var order = 0
        let minute: Int64 = 60_000, day: Int64 = 86_400_000

        /// A local time (minutes after midnight) on working day `d` (0 = Sunday).
        func at(_ d: Int, _ localMinutes: Double) -> Int64 { weekStartMillis + Int64(d) * day + Int64(localMinutes * 60_000) }
        /// Moves a decision made after 18:00 (or before 09:00) into the next working morning's peak
        /// (Friday and Saturday are the weekend).
        func workingHours(_ t: Int64) -> Int64 {
            let offset = t - weekStartMillis
            let d = Int(offset / day), m = Double(offset % day) / 60_000
            if m >= 18 * 60 { return at(d % 7 == 4 ? d + 3 : d + 1, 9 * 60 + rng.unit() * 120) }
            if m < 9 * 60 { return at(d, 9 * 60 + rng.unit() * 120) }
            return t
        }
        func dateText(_ millis: Int64) -> String {
            // Dates are local (UTC+6).
            let (_, month, dayOfMonth) = Timestamp.civilFromDays((millis + 6 * 3_600_000) / day)
            return "\(dayOfMonth) \(Self.months[Int(month) - 1])"
        }
        func notify(_ t: Int64, to: inout Person, type: String, category: String, priority: Int,
                    title: String, body: String, target: String) {
            guard out.count < events else { return }
            if rng.unit() < 0.3 { to.unread = 0 }  // the recipient opened the app
            to.unread += 1
            var line = NDJSONLine()
            line.string("at", Timestamp.iso8601(millis: t))
            line.string("kind", "notify")
            line.string("token", to.token)
            line.string("type", type)
            line.string("title", title)
            line.string("body", body)
            line.string("category", category)
            line.int("priority", priority)
            line.string("target_id", target)
            line.string("thread_id", "leave-" + target)
            line.int("badge", to.unread)
            out.append((t, order, line.line))
            order += 1
        }

        while out.count < events {
            let e = Int(rng.next() % UInt64(staff.count))
            let a = Int(rng.next() % UInt64(approvers.count))
            let d = Int(rng.next() % 5)
            let roll = rng.unit()
            let localMinutes = roll < 0.55 ? 540 + rng.unit() * 120 : (roll < 0.85 ? 840 + rng.unit() * 120 : 480 + rng.unit() * 600)
            let submitted = at(d, localMinutes)
            let id = rng.uuid().lowercased()
            let (_, typeEN, typeBN) = rng.pick(Self.leaveTypes)
            let startDate = submitted + Int64(1 + rng.next() % 30) * day
            let days = 1 + Int(rng.next() % 5)
            let endDate = startDate + Int64(days - 1) * day
            let span = days == 1 ? dateText(startDate) : "\(dateText(startDate))–\(dateText(endDate))"
            let reason = rng.pick(Self.reasons)
            let employee = staff[e].name, approver = approvers[a].name

            notify(submitted, to: &approvers[a], type: "LEAVE_SUBMITTED", category: "LEAVE_REVIEW", priority: 5,
                   title: approvers[a].bengali ? "নতুন ছুটির আবেদন" : "New Leave Request",
                   body: "\(employee) requested \(days) day(s) of \(typeEN) leave (\(span)): \(reason)", target: id)
            var t = submitted
            if rng.unit() < 0.08 {
                t = workingHours(t + Int64(10 + rng.unit() * 240) * minute)
                notify(t, to: &approvers[a], type: "LEAVE_CANCELLED", category: "LEAVE_STATUS", priority: 5,
                       title: approvers[a].bengali ? "ছুটি বাতিল" : "Leave Cancelled",
                       body: "\(employee) cancelled the \(typeEN) leave request for \(span).", target: id)
                continue
            }
            if rng.unit() < 0.4 {
                t = workingHours(t + Int64(5 + rng.unit() * 120) * minute)
                notify(t, to: &staff[e], type: "LEAVE_PENDING", category: "LEAVE_STATUS", priority: 5,
                       title: staff[e].bengali ? "এইচআর-এ পাঠানো হয়েছে" : "Leave Forwarded to HR",
                       body: "Your \(typeEN) leave request (\(span)) was approved by DEPT_HEAD and is pending with HR.", target: id)
            }
            guard rng.unit() < 0.9 else { continue }  // still undecided at the end of the recording
            t = workingHours(t + Int64(15 + rng.unit() * 360) * minute)
            let approved = rng.unit() < 0.78
            let remark = rng.pick(Self.remarks)
            if approved {
                notify(t, to: &staff[e], type: "LEAVE_APPROVED", category: "LEAVE_STATUS", priority: 10,
                       title: staff[e].bengali ? "ছুটি অনুমোদিত" : "Leave Approved",
                       body: staff[e].bengali
                           ? "আপনার \(typeBN) ছুটির আবেদন (\(span)) অনুমোদিত হয়েছে। \(remark)"
                           : "Your \(typeEN) leave request (\(span)) has been approved by \(approver). Remarks: \(remark)",
                       target: id)
            } else {
                notify(t, to: &staff[e], type: "LEAVE_REJECTED", category: "LEAVE_STATUS", priority: 10,
                       title: staff[e].bengali ? "ছুটি প্রত্যাখ্যাত" : "Leave Rejected",
                       body: "Your \(typeEN) leave request (\(span)) was rejected by \(approver). Remarks: \(remark)", target: id)
            }
        }
        out.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        for e in out { try emit(e.line) }
    }
}
