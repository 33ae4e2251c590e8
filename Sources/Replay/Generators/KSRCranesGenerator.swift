import APNsCore

/// Writes a synthetic KSR Cranes recording: `notify` events for crane operators' work entries
/// (timesheets) and leave requests over one Monday–Friday week in Copenhagen (UTC+2, summer time).
///
/// Shape: operators submit the day's hours at the end of their shift (afternoon peak 15:00–17:30 local) or
/// the next morning (06:30–08:30); each submission notifies a manager (`WORK_ENTRY_SUBMITTED` /
/// `LEAVE_REQUEST_SUBMITTED`, priority 5, categories `WORK_ENTRY_REVIEW` / `LEAVE_REVIEW`). Managers decide
/// in the morning (07:00–09:30) or after lunch (12:30–14:00): `…_APPROVED` / `…_REJECTED` to the operator,
/// priority 10, categories `WORK_ENTRY_STATUS` / `LEAVE_STATUS`. A share of people read notifications in
/// Danish; names, projects and rejection reasons carry quotes, backslashes, emoji and non-Latin letters
/// (Danish, Polish, Ukrainian). A small share of operators (never managers) have no device registered (`token: null`).
///
/// Exactly `events` lines, in time order. Same seed, same bytes.
public struct KSRCranesGenerator {
    public var events: Int
    public var seed: UInt64
    /// Midnight of Monday 2025-06-02 in Copenhagen (UTC+2), epoch ms.
    public var weekStartMillis: Int64 = 1_748_815_200_000
    /// Share of people with no device token (their pushes end as not sent: no token). Default 0.02.
    public var noTokenShare = 0.02
    /// Share of people whose notifications are in Danish. Default 0.3.
    public var danishShare = 0.3

    public init(events: Int, seed: UInt64) {
        self.events = events
        self.seed = seed
    }

    static let operatorNames = [
        "Søren Østergaard", "Łukasz Wójcik", "Jørgen \"Kran\" Hansen", "Mikkel Ærø-Madsen", "Paweł Żółkiewski",
        "Олександр Коваленко", "Anders Back\\slash Nielsen", "Kasper 🏗️ Larsen", "Tomasz Król", "Mads O'Connor",
        "Frederik Bjørn", "Grzegorz Brzęczyszczykiewicz", "Emil Sørensen", "Дмитро Шевченко", "Jonas Kjærgaard",
    ]
    static let managerNames = ["Majken \"Chef\" Sørensen", "Piotr Nowak", "Lars Løkke", "Henrik 👷 Dahl"]
    static let projects = [
        "Nordhavn Tower", "Lynetteholm \"Phase 2\"", "Aarhus Ø — Lighthouse", "Carlsberg Byen", "Amager Bakke 🎿",
        "Vinge C:\\Site\\7", "Køge Nord Station", "Odense Universitetshospital",
    ]
    static let rejections = [
        "Hours don't match the crane log (see \\\\ksr-fs01\\logs\\2025-06)", "Overtime not pre-approved",
        "Wrong project — this was \"Nordhavn\", not \"Lynetteholm\"", "Mangler underskrift ✍️", "Duplicate entry",
        "Please split weekend hours 🙏",
    ]
    static let leaveKinds = [("vacation", "ferie"), ("sick leave", "sygdom"), ("personal day", "fridag"), ("training", "kursus")]
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    struct Person {
        var name: String
        var token: String?
        var danish: Bool
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
            return Person(name: name, token: token, danish: rng.unit() < danishShare)
        }
        let operators = (0..<max(30, events / 6)).map { _ in person(rng.pick(Self.operatorNames)) }
        let managers = (0..<max(3, events / 100)).map { _ in person(rng.pick(Self.managerNames), approver: true) }

        var out: [(at: Int64, order: Int, line: [UInt8])] = []
        out.reserveCapacity(events + 2)
        var order = 0
        var nextID = 40_000
        let day: Int64 = 86_400_000

        func at(_ d: Int, _ localMinutes: Double) -> Int64 { weekStartMillis + Int64(d) * day + Int64(localMinutes * 60_000) }
        func dateText(_ d: Int) -> String {
            let (_, month, dayOfMonth) = Timestamp.civilFromDays((weekStartMillis + 2 * 3_600_000) / day + Int64(d))
            return "\(Self.weekdays[d % 7]) \(dayOfMonth) \(Self.months[Int(month) - 1])"
        }
        func notify(_ t: Int64, to: Person, type: String, category: String, priority: Int,
                    title: String, body: String, target: Int, thread: String) {
            guard out.count < events else { return }
            var line = NDJSONLine()
            line.string("at", Timestamp.iso8601(millis: t))
            line.string("kind", "notify")
            line.string("token", to.token)
            line.string("type", type)
            line.string("title", title)
            line.string("body", body)
            line.string("category", category)
            line.int("priority", priority)
            line.string("target_id", String(target))
            line.string("thread_id", thread)
            out.append((t, order, line.line))
            order += 1
        }

        while out.count < events {
            nextID += 1
            let worker = rng.pick(operators), manager = rng.pick(managers)
            let workDay = Int(rng.next() % 5)
            // Submitted at the end of the shift, or the next morning.
            let submitted = rng.unit() < 0.65 ? at(workDay, 900 + rng.unit() * 150) : at(workDay + 1, 390 + rng.unit() * 120)
            // Decided the next morning, or after lunch the same day when submitted early.
            let decisionDay = Int((submitted - weekStartMillis) / day) + (rng.unit() < 0.7 ? 1 : 0)
            var decided = rng.unit() < 0.75 ? at(decisionDay, 420 + rng.unit() * 150) : at(decisionDay, 750 + rng.unit() * 90)
            if decided <= submitted { decided = submitted + Int64(20 + rng.unit() * 120) * 60_000 }
            let project = rng.pick(Self.projects)

            if rng.unit() < 0.78 {
                let normal = 7 + Double(rng.next() % 4) * 0.5
                let overtime = rng.unit() < 0.35 ? Double(1 + rng.next() % 6) * 0.5 : 0
                func h(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
                let hours = overtime > 0 ? "\(h(normal + overtime)) h (\(h(overtime)) h overtime)" : "\(h(normal)) h"
                let date = dateText(workDay)
                notify(submitted, to: manager, type: "WORK_ENTRY_SUBMITTED", category: "WORK_ENTRY_REVIEW", priority: 5,
                       title: manager.danish ? "Timeseddel indsendt" : "Work entry submitted",
                       body: "\(worker.name) submitted \(hours) for \(date) — project \"\(project)\"",
                       target: nextID, thread: "work-entry-\(nextID)")
                guard rng.unit() < 0.92 else { continue }  // not reviewed yet when the recording ends
                if rng.unit() < 0.87 {
                    notify(decided, to: worker, type: "WORK_ENTRY_APPROVED", category: "WORK_ENTRY_STATUS", priority: 10,
                           title: worker.danish ? "Timeseddel godkendt ✅" : "Work entry approved ✅",
                           body: "\(manager.name) approved your \(hours) on \(project) (\(date)).",
                           target: nextID, thread: "work-entry-\(nextID)")
                } else {
                    notify(decided, to: worker, type: "WORK_ENTRY_REJECTED", category: "WORK_ENTRY_STATUS", priority: 10,
                           title: worker.danish ? "Timeseddel afvist" : "Work entry rejected",
                           body: "\(manager.name) rejected your entry for \(date): \(rng.pick(Self.rejections))",
                           target: nextID, thread: "work-entry-\(nextID)")
                }
            } else {
                let (kindEN, kindDA) = rng.pick(Self.leaveKinds)
                let from = workDay + 3 + Int(rng.next() % 20)
                let days = 1 + Int(rng.next() % 10)
                let span = days == 1 ? dateText(from) : "\(dateText(from)) – \(dateText(from + days - 1))"
                notify(submitted, to: manager, type: "LEAVE_REQUEST_SUBMITTED", category: "LEAVE_REVIEW", priority: 5,
                       title: manager.danish ? "Ny anmodning om \(kindDA)" : "New leave request",
                       body: "\(worker.name) asks for \(kindEN), \(span) (\(days) day\(days == 1 ? "" : "s"))",
                       target: nextID, thread: "leave-\(nextID)")
                guard rng.unit() < 0.9 else { continue }
                let approved = rng.unit() < 0.82
                notify(decided, to: worker, type: approved ? "LEAVE_REQUEST_APPROVED" : "LEAVE_REQUEST_REJECTED",
                       category: "LEAVE_STATUS", priority: 10,
                       title: worker.danish ? (approved ? "Din \(kindDA) er godkendt 🌴" : "Din \(kindDA) er afvist")
                                            : (approved ? "Leave approved 🌴" : "Leave rejected"),
                       body: approved ? "Your \(kindEN) \(span) was approved by \(manager.name)."
                                      : "Your \(kindEN) \(span) was rejected by \(manager.name): \"too many on leave that week\"",
                       target: nextID, thread: "leave-\(nextID)")
            }
        }
        out.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        for e in out { try emit(e.line) }
    }
}
