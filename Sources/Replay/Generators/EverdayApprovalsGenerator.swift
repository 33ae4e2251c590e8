import APNsCore

/// Writes a synthetic Everday recording over two weeks in Sydney (UTC+11) for a backend serving
/// a few hundred families: parents install the app and register their devices (`parent.device`: most in
/// the first days, in the evening; one or two parents a family, some with an iPhone and an iPad), some
/// devices later get a new token (app reinstalled or restored: the same `device_id`, a new `push_token`)
/// and a few sign out (`parent.removed`); kids register over the days after school (`account.registered`,
/// first and last names sometimes missing), and each registration is pushed to every parent device of the
/// kid's family registered by then (every event carries `family_id`). A kid who registers before any of
/// the family's parents has a device gives one push not sent (`no_recipients`).
///
/// Names and usernames carry quotes, backslashes, emoji and non-Latin letters. About 4 events a family.
/// Exactly `events` lines, in time order. Same seed, same bytes.
public struct EverdayApprovalsGenerator {
    public var events: Int
    public var seed: UInt64
    /// Midnight of Monday 2025-03-03 in Sydney (UTC+11), epoch ms.
    public var startMillis: Int64 = 1_740_920_400_000
    /// Days the recording covers. Default 14.
    public var days = 14
    /// Share of devices that get a new token later. Default 0.2.
    public var rotationShare = 0.2
    /// Share of devices that sign out later. Default 0.03.
    public var removalShare = 0.03

    public init(events: Int, seed: UInt64) {
        self.events = events
        self.seed = seed
    }

    static let surnames = [
        "Smith", "Nguyễn", "O'Brien", "Papadopoulos", "Wang 王", "Kowalski", "Te Rangi", "Müller", "Singh",
        "D\"Angelo", "Back\\Slash", "Ivanova Иванова", "Tanaka 田中", "Haddad حداد", "Brown",
    ]
    static let kidFirstNames: [String?] = [
        "Mia", "Zoë", "Lachlan", "Ngọc Anh", "明", "Aroha", "Noah 🦖", "Chloé \"Coco\"", "Oliver", "Sofía",
        "Jack", "Ana-Lucía", "Дарья", "Ruby 🌈", nil,
    ]
    static let usernameStems = ["newkid", "mia_p", "zoe.o", "lachie", "gamer\\kid", "noah_dino", "coco\"x\"", "ruby🌈", "anh.ng", "jack"]

    /// Generates the recording and hands it out line by line (each with its newline), in time order.
    /// Length: one pass of random draws in a fixed order, which makes the shipped recording byte for byte;
    /// its helpers are closures over the generator's random state and its lines, and `apnsbench scale`, not a
    /// change here, is how a recording grows.
    public func write(_ emit: ([UInt8]) throws -> Void) rethrows {
        precondition(events >= 1, "EverdayApprovalsGenerator: events must be at least 1")
        var rng = SplitMix64(seed: seed)
        let day: Int64 = 86_400_000, end = startMillis + Int64(days) * day
        var out: [(at: Int64, order: Int, line: [UInt8])] = []
        out.reserveCapacity(events)
        var order = 0
        func add(_ at: Int64, _ build: (inout NDJSONLine) -> Void) {
            var line = NDJSONLine()
            line.string("at", Timestamp.iso8601(millis: at))
            build(&line)
            out.append((at, order, line.line))
            order += 1
        }
        /// An evening moment (17:00–22:30 local, sometimes any time 07:00–23:00) on `d`.
        func evening(_ d: Int) -> Int64 {
            let minutes = rng.unit() < 0.75 ? 1020 + rng.unit() * 330 : 420 + rng.unit() * 960
            return startMillis + Int64(d) * day + Int64(minutes * 60_000)
        }
        func later(than t: Int64) -> Int64 { t + Int64(rng.unit() * Double(end - t)) }

        var family = 0, accountID = 500, userID = 9000
        while out.count < events {
            family += 1
            let familyID = family, surname = rng.pick(Self.surnames)
            // The parents' devices.
            for _ in 0..<(rng.unit() < 0.8 ? 2 : 1) {
                accountID += 1
                let account = accountID
                for _ in 0..<(rng.unit() < 0.3 ? 2 : 1) where out.count < events {
                    let deviceID = rng.uuid()
                    let registered = evening(rng.unit() < 0.7 ? Int(rng.next() % 3) : Int(rng.next() % UInt64(days)))
                    let token = rng.hex(bytes: 32)
                    add(registered) { l in
                        l.string("kind", "parent.device"); l.string("device_id", deviceID); l.string("push_token", token)
                        l.int("account_id", account); l.int("family_id", familyID)
                    }
                    let roll = rng.unit()
                    if roll < rotationShare, out.count < events {
                        let rotated = later(than: registered)
                        let newToken = rng.hex(bytes: 32)
                        add(rotated) { l in
                            l.string("kind", "parent.device"); l.string("device_id", deviceID); l.string("push_token", newToken)
                            l.int("account_id", account); l.int("family_id", familyID)
                        }
                    } else if roll < rotationShare + removalShare, out.count < events {
                        add(later(than: registered)) { l in l.string("kind", "parent.removed"); l.string("device_id", deviceID) }
                    }
                }
            }
            // The kids: none to three, registering after school on one of the days after the first.
            let roll = rng.unit()
            let kids = roll < 0.15 ? 0 : (roll < 0.65 ? 1 : (roll < 0.93 ? 2 : 3))
            for _ in 0..<kids where out.count < events {
                userID += 1
                let d = 1 + Int(rng.next() % UInt64(max(1, days - 1)))
                let at = startMillis + Int64(d) * day + Int64((930 + rng.unit() * 300) * 60_000)
                let first = rng.pick(Self.kidFirstNames)
                let last: String? = first == nil || rng.unit() < 0.15 ? nil : surname
                let username = rng.pick(Self.usernameStems) + String(userID % 1000)
                let id = userID
                add(at) { l in
                    l.string("kind", "account.registered"); l.int("user_id", id); l.string("username", username)
                    l.string("first_name", first); l.string("last_name", last); l.int("family_id", familyID)
                }
            }
        }
        out.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        for e in out { try emit(e.line) }
    }
}
