import DeviceContract

/// Rows for the models of OracleModels+Shapes.swift: type aliases, ranges, Decimal, Set, enums without a
/// raw type, optionals inside collections, several properties in one declaration, every integer width,
/// Float, CGFloat, UUID, URL, Data, and a type with its own init(from:).
extension OracleTableTests {
    /// `{"a":1,…}` from ordered fields, with some replaced, added or dropped.
    static func object(_ base: [(String, String)], _ overrides: [String: String] = [:], drop: Set<String> = []) -> String {
        var fields = base
        for (key, value) in overrides.sorted(by: { $0.key < $1.key }) {
            if let slot = fields.firstIndex(where: { $0.0 == key }) { fields[slot].1 = value } else { fields.append((key, value)) }
        }
        return "{" + fields.filter { !drop.contains($0.0) }.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static let pizzaState: [(String, String)] = [("driverName", #""Anne""#), ("estimatedDeliveryTime", "[766000000,766001800]")]
    static let scoreState: [(String, String)] = [
        ("home", "3"), ("away", "2"), ("period", "2"), ("overtime", "false"), ("shots", "12"), ("fouls", "4"),
        ("elapsedMillis", "1200000"), ("attendance", "40000"), ("possession", "1"), ("broadcastID", "7"), ("sequence", "99"),
        ("clock", "[0,720.5]"), ("margin", "1"),
    ]
    static let chargingState: [(String, String)] = [
        ("phase", #"{"charging":{"power":7.4}}"#), ("price", "0.39"), ("tags", #"["fast"]"#), ("readings", "[1.5,null]"),
        ("byStall", #"{"a":1,"b":null}"#), ("grid", "[[1,null],[]]"),
    ]
    static let mediaState: [(String, String)] = [
        ("thumbnail", #""aGVsbG8=""#), ("previewURL", #""https://cdn.example.com/p.png""#), ("mirrors", "[]"),
        ("jobID", #""E0D62919-9EF2-49C6-A108-85A227AF3904""#), ("progress", "0.5"), ("scale", "2"),
    ]
    static let routeState: [(String, String)] = [("waypoint", #""Central""#), ("stopsLeft", "[1,4]"), ("status", #""moving""#)]

    /// Collects rows: `add` for an update, `start` for a push-to-start.
    struct RowBuilder {
        var rows: [Row] = []

        mutating func add(_ model: String, _ summary: String, _ state: String, failsAt: String? = nil, strategy: DateStrategy = .deferredToDate) {
            rows.append(Row(model: model, event: .update, strategy: strategy, summary: summary, payload: update(state), failsAt: failsAt))
        }

        mutating func start(_ model: String, _ summary: String, _ attributes: String, _ state: String, failsAt: String? = nil) {
            rows.append(Row(model: model, event: .start, strategy: .deferredToDate, summary: summary,
                            payload: OracleTableTests.start(attributes: attributes, contentState: state, type: model), failsAt: failsAt))
        }
    }

    static let shapeRows: [Row] = {
        var b = RowBuilder()
        pizzaRows(&b)
        trackerAndScoreRows(&b)
        chargingRows(&b)
        mediaAndRouteRows(&b)
        return b.rows
    }()

    static let cs = "content-state"

    static func pizzaRows(_ b: inout RowBuilder) {
        let m = "Pizza", s = pizzaState
        func st(_ o: [String: String] = [:], drop: Set<String> = []) -> String { object(s, o, drop: drop) }
        let attributes = #"{"numberOfPizzas":2,"totalAmount":"$42.90","orderNumber":"12345"}"#
        b.add(m, "driver and delivery window", st())
        b.add(m, "window of one instant [5,5]", st(["estimatedDeliveryTime": "[5,5]"]))
        b.add(m, "window reversed", st(["estimatedDeliveryTime": "[766001800,766000000]"]), failsAt: "\(cs).estimatedDeliveryTime")
        b.add(m, "window with one bound", st(["estimatedDeliveryTime": "[766000000]"]), failsAt: "\(cs).estimatedDeliveryTime[1]")
        b.add(m, "window []", st(["estimatedDeliveryTime": "[]"]), failsAt: "\(cs).estimatedDeliveryTime[0]")
        b.add(m, "window with three elements", st(["estimatedDeliveryTime": "[1,2,3]"]))
        b.add(m, "window [1e3,1e4]", st(["estimatedDeliveryTime": "[1e3,1e4]"]))
        b.add(m, "window of ISO strings", st(["estimatedDeliveryTime": #"["2025-04-16T10:00:00Z","2025-04-16T10:30:00Z"]"#]),
            failsAt: "\(cs).estimatedDeliveryTime[0]")
        b.add(m, "ISO window under iso8601", st(["estimatedDeliveryTime": #"["2025-04-16T10:00:00Z","2025-04-16T10:30:00Z"]"#]), strategy: .iso8601)
        b.add(m, "reversed ISO window under iso8601", st(["estimatedDeliveryTime": #"["2025-04-16T10:30:00Z","2025-04-16T10:00:00Z"]"#]),
              failsAt: "\(cs).estimatedDeliveryTime", strategy: .iso8601)
        b.add(m, "window [1.5,1.25] in seconds since 1970", st(["estimatedDeliveryTime": "[1.5,1.25]"]), failsAt: "\(cs).estimatedDeliveryTime",
            strategy: .secondsSince1970)
        b.add(m, "window as {lowerBound, upperBound}", st(["estimatedDeliveryTime": #"{"lowerBound":1,"upperBound":2}"#]),
            failsAt: "\(cs).estimatedDeliveryTime")
        b.add(m, "window [1,null]", st(["estimatedDeliveryTime": "[1,null]"]), failsAt: "\(cs).estimatedDeliveryTime[1]")
        b.add(m, "window missing", st(drop: ["estimatedDeliveryTime"]), failsAt: "\(cs).estimatedDeliveryTime")
        b.start(m, "start with valid attributes", attributes, st())
        b.start(m, "start, numberOfPizzas \"2\"", attributes.replacingOccurrences(of: "2,", with: #""2","#), st(), failsAt: "attributes.numberOfPizzas")
    }

    static func trackerAndScoreRows(_ b: inout RowBuilder) {
        let t = "OrderTracker"
        b.add(t, "emoji", #"{"emoji":"👋"}"#)
        b.add(t, "emoji null", #"{"emoji":null}"#, failsAt: "\(cs).emoji")
        b.add(t, "emoji missing", "{}", failsAt: "\(cs).emoji")
        b.add(t, "emoji a number", #"{"emoji":1}"#, failsAt: "\(cs).emoji")
        b.start(t, "start with a name", #"{"name":"World"}"#, #"{"emoji":"🥳"}"#)
        b.start(t, "start without a name", "{}", #"{"emoji":"🥳"}"#, failsAt: "attributes.name")

        let m = "Scoreboard", s = scoreState
        func st(_ o: [String: String] = [:], drop: Set<String> = []) -> String { object(s, o, drop: drop) }
        b.add(m, "every field", st())
        b.add(m, "away missing (var home, away: Points)", st(drop: ["away"]), failsAt: "\(cs).away")
        b.add(m, "away 65536 (UInt16 by alias)", st(["away": "65536"]), failsAt: "\(cs).away")
        b.add(m, "home -1", st(["home": "-1"]), failsAt: "\(cs).home")
        b.add(m, "period 127 (Int8)", st(["period": "127"]))
        b.add(m, "period 128", st(["period": "128"]), failsAt: "\(cs).period")
        b.add(m, "period -128", st(["period": "-128"]))
        b.add(m, "overtime missing (let a: Int8, b: Bool)", st(drop: ["overtime"]), failsAt: "\(cs).overtime")
        b.add(m, "shots 32768 (Int16)", st(["shots": "32768"]), failsAt: "\(cs).shots")
        b.add(m, "shots missing (var with default)", st(drop: ["shots"]), failsAt: "\(cs).shots")
        b.add(m, "fouls 2147483648 (Int32)", st(["fouls": "2147483648"]), failsAt: "\(cs).fouls")
        b.add(m, "elapsedMillis Int64.max", st(["elapsedMillis": "9223372036854775807"]))
        b.add(m, "elapsedMillis Int64.max + 1", st(["elapsedMillis": "9223372036854775808"]), failsAt: "\(cs).elapsedMillis")
        b.add(m, "attendance -5 (UInt)", st(["attendance": "-5"]), failsAt: "\(cs).attendance")
        b.add(m, "possession 256 (UInt8)", st(["possession": "256"]), failsAt: "\(cs).possession")
        b.add(m, "broadcastID 4294967296 (UInt32)", st(["broadcastID": "4294967296"]), failsAt: "\(cs).broadcastID")
        b.add(m, "sequence UInt64.max", st(["sequence": "18446744073709551615"]))
        b.add(m, "sequence UInt64.max + 1", st(["sequence": "18446744073709551616"]), failsAt: "\(cs).sequence")
        b.add(m, "sequence 1.0", st(["sequence": "1.0"]))
        b.add(m, "clock reversed (Range<Double>)", st(["clock": "[720.5,0]"]), failsAt: "\(cs).clock")
        b.add(m, "clock [0,0] (empty range)", st(["clock": "[0,0]"]))
        b.add(m, "clock [0]", st(["clock": "[0]"]), failsAt: "\(cs).clock[1]")
        b.add(m, "clock \"0-720\"", st(["clock": #""0-720""#]), failsAt: "\(cs).clock")
        b.add(m, "clock [0,\"720\"]", st(["clock": #"[0,"720"]"#]), failsAt: "\(cs).clock[1]")
        b.add(m, "margin -3", st(["margin": "-3"]))
        b.add(m, "overtime \"false\"", st(["overtime": #""false""#]), failsAt: "\(cs).overtime")
        let teams = #"{"homeTeam":"Hawks","awayTeam":"Owls","league":"City"}"#
        b.start(m, "start: teams and league (alias of String)", teams, st())
        b.start(m, "start: awayTeam missing (let a, b: String)", #"{"homeTeam":"Hawks","league":"City"}"#, st(), failsAt: "attributes.awayTeam")
        b.start(m, "start: league 5", #"{"homeTeam":"Hawks","awayTeam":"Owls","league":5}"#, st(), failsAt: "attributes.league")
    }

    static func chargingRows(_ b: inout RowBuilder) {
        let m = "Charging", s = chargingState
        func st(_ o: [String: String] = [:], drop: Set<String> = []) -> String { object(s, o, drop: drop) }
        let phase = "\(cs).phase"
        b.add(m, "charging with power", st())
        b.add(m, "phase idle {}", st(["phase": #"{"idle":{}}"#]))
        b.add(m, "phase idle with a key inside", st(["phase": #"{"idle":{"x":1}}"#]))
        b.add(m, "phase \"idle\" (a string)", st(["phase": #""idle""#]), failsAt: phase)
        b.add(m, "phase {}", st(["phase": "{}"]), failsAt: phase)
        b.add(m, "phase with two cases", st(["phase": #"{"idle":{},"charging":{"power":1}}"#]), failsAt: phase)
        b.add(m, "phase idle and an unknown key", st(["phase": #"{"idle":{},"other":1}"#]))
        b.add(m, "phase of an unknown case", st(["phase": #"{"unplugged":{}}"#]), failsAt: phase)
        b.add(m, "charging without power", st(["phase": #"{"charging":{}}"#]), failsAt: "\(phase).charging.power")
        b.add(m, "charging power \"7\"", st(["phase": #"{"charging":{"power":"7"}}"#]), failsAt: "\(phase).charging.power")
        b.add(m, "paused _0 only (reason optional)", st(["phase": #"{"paused":{"_0":3}}"#]))
        b.add(m, "paused reason null", st(["phase": #"{"paused":{"_0":3,"reason":null}}"#]))
        b.add(m, "paused _0 \"3\"", st(["phase": #"{"paused":{"_0":"3"}}"#]), failsAt: "\(phase).paused._0")
        b.add(m, "paused keyed 0 instead of _0", st(["phase": #"{"paused":{"0":3}}"#]), failsAt: "\(phase).paused._0")
        b.add(m, "paused reason 5", st(["phase": #"{"paused":{"_0":3,"reason":5}}"#]), failsAt: "\(phase).paused.reason")
        b.add(m, "queued with a struct", st(["phase": #"{"queued":{"_0":{"place":2}}}"#]))
        b.add(m, "queued struct without place", st(["phase": #"{"queued":{"_0":{}}}"#]), failsAt: "\(phase).queued._0.place")
        b.add(m, "idle null", st(["phase": #"{"idle":null}"#]), failsAt: "\(phase).idle")
        b.add(m, "idle []", st(["phase": #"{"idle":[]}"#]), failsAt: "\(phase).idle")
        b.add(m, "charging twice, first valid", st(["phase": #"{"charging":{"power":1},"charging":{"power":"x"}}"#]))
        b.add(m, "connector ccs", st(["connector": #"{"ccs":{}}"#]))
        b.add(m, "connector null (optional)", st(["connector": "null"]))
        b.add(m, "connector \"ccs\"", st(["connector": #""ccs""#]), failsAt: "\(cs).connector")
        b.add(m, "price \"0.39\"", st(["price": #""0.39""#]), failsAt: "\(cs).price")
        b.add(m, "price 1e128 (beyond Decimal)", st(["price": "1e128"]), failsAt: "\(cs).price")
        b.add(m, "price 1e127", st(["price": "1e127"]))
        b.add(m, "price with 50 digits", st(["price": "12345678901234567890123456789012345678901234567890"]))
        b.add(m, "price -0", st(["price": "-0"]))
        b.add(m, "energy null", st(["energy": "null"]))
        b.add(m, "energy 1e-129", st(["energy": "1e-129"]), failsAt: "\(cs).energy")
        b.add(m, "tags with a duplicate", st(["tags": #"["a","a"]"#]))
        b.add(m, "tags [1]", st(["tags": "[1]"]), failsAt: "\(cs).tags[0]")
        b.add(m, "tags null", st(["tags": "null"]), failsAt: "\(cs).tags")
        b.add(m, "readings [null,null] ([Double?])", st(["readings": "[null,null]"]))
        b.add(m, "readings [\"x\"]", st(["readings": #"["x"]"#]), failsAt: "\(cs).readings[0]")
        b.add(m, "byStall {\"a\":null} ([String: Int?])", st(["byStall": #"{"a":null}"#]))
        b.add(m, "byStall {\"a\":\"1\"}", st(["byStall": #"{"a":"1"}"#]), failsAt: "\(cs).byStall.a")
        b.add(m, "grid [[null]] ([[Int?]])", st(["grid": "[[null]]"]))
        b.add(m, "grid [[1],[\"x\"]]", st(["grid": #"[[1],["x"]]"#]), failsAt: "\(cs).grid[1][0]")
        b.add(m, "grid [null]", st(["grid": "[null]"]), failsAt: "\(cs).grid[0]")
        b.add(m, "favorites [1,2] (Set<Int>?)", st(["favorites": "[1,2]"]))
        b.add(m, "favorites [1,null]", st(["favorites": "[1,null]"]), failsAt: "\(cs).favorites[1]")
        b.start(m, "start: station and tariff", #"{"stationName":"Depot","tariff":0.25}"#, st())
        b.start(m, "start: tariff \"0.25\"", #"{"stationName":"Depot","tariff":"0.25"}"#, st(), failsAt: "attributes.tariff")
    }

    static func mediaAndRouteRows(_ b: inout RowBuilder) {
        let m = "Media", s = mediaState
        func st(_ o: [String: String] = [:], drop: Set<String> = []) -> String { object(s, o, drop: drop) }
        b.add(m, "every field", st())
        b.add(m, "thumbnail \"\" (empty Data)", st(["thumbnail": #""""#]))
        b.add(m, "thumbnail without padding", st(["thumbnail": #""aGVsbG8""#]), failsAt: "\(cs).thumbnail")
        b.add(m, "thumbnail with a space", st(["thumbnail": #""aGVs bG8=""#]), failsAt: "\(cs).thumbnail")
        b.add(m, "thumbnail \"aGVsbA=a\"", st(["thumbnail": #""aGVsbA=a""#]))
        b.add(m, "thumbnail with an escaped letter", st(["thumbnail": #""\u0061GVsbG8=""#]))
        b.add(m, "thumbnail [1,2]", st(["thumbnail": "[1,2]"]), failsAt: "\(cs).thumbnail")
        b.add(m, "thumbnail null", st(["thumbnail": "null"]), failsAt: "\(cs).thumbnail")
        b.add(m, "checksum \"!!\"", st(["checksum": #""!!""#]), failsAt: "\(cs).checksum")
        b.add(m, "checksum null", st(["checksum": "null"]))
        b.add(m, "previewURL \"\"", st(["previewURL": #""""#]), failsAt: "\(cs).previewURL")
        b.add(m, "previewURL \"http://a b\"", st(["previewURL": #""http://a b""#]), failsAt: "\(cs).previewURL")
        b.add(m, "previewURL \"not a url\"", st(["previewURL": #""not a url""#]))
        b.add(m, "mirrors with an empty URL", st(["mirrors": #"["https://a.example",""]"#]), failsAt: "\(cs).mirrors[1]")
        b.add(m, "jobID \"nope\"", st(["jobID": #""nope""#]), failsAt: "\(cs).jobID")
        b.add(m, "jobID lower-case", st(["jobID": #""e0d62919-9ef2-49c6-a108-85a227af3904""#]))
        b.add(m, "progress 1e39 (Float)", st(["progress": "1e39"]), failsAt: "\(cs).progress")
        b.add(m, "progress 3.4e38", st(["progress": "3.4e38"]))
        b.add(m, "scale 1e308 (CGFloat)", st(["scale": "1e308"]))
        b.add(m, "scale \"2\"", st(["scale": #""2""#]), failsAt: "\(cs).scale")
        b.add(m, "scale 1e400", st(["scale": "1e400"]), failsAt: "\(cs).scale")
        b.start(m, "start: file and upload id", #"{"fileName":"a.mov","uploadID":"E0D62919-9EF2-49C6-A108-85A227AF3904"}"#, st())
        b.start(m, "start: uploadID \"x\"", #"{"fileName":"a.mov","uploadID":"x"}"#, st(), failsAt: "attributes.uploadID")

        let r = "Route", rs = routeState
        func rt(_ o: [String: String] = [:], drop: Set<String> = []) -> String { object(rs, o, drop: drop) }
        b.add(r, "waypoint, stops and status", rt())
        b.add(r, "waypoint a number (its own init(from:))", rt(["waypoint": "5"]))
        b.add(r, "waypoint null (its own init(from:))", rt(["waypoint": "null"]))
        b.add(r, "waypoint missing", rt(drop: ["waypoint"]), failsAt: "\(cs).waypoint")
        b.add(r, "stopsLeft reversed (ClosedRange<Int>)", rt(["stopsLeft": "[4,1]"]), failsAt: "\(cs).stopsLeft")
        b.add(r, "stopsLeft [-2,-1]", rt(["stopsLeft": "[-2,-1]"]))
        b.add(r, "stopsLeft [-1,-2]", rt(["stopsLeft": "[-1,-2]"]), failsAt: "\(cs).stopsLeft")
        b.add(r, "stopsLeft [1.0,2]", rt(["stopsLeft": "[1.0,2]"]))
        b.add(r, "stopsLeft [1.5,2]", rt(["stopsLeft": "[1.5,2]"]), failsAt: "\(cs).stopsLeft[0]")
        b.add(r, "fare [1.25,2.5] (ClosedRange<Decimal>?)", rt(["fare": "[1.25,2.5]"]))
        b.add(r, "fare reversed", rt(["fare": "[2.5,1.25]"]), failsAt: "\(cs).fare")
        b.add(r, "fare null", rt(["fare": "null"]))
        b.add(r, "fare [1e128,1]", rt(["fare": "[1e128,1]"]), failsAt: "\(cs).fare[0]")
        b.add(r, "status \"flying\"", rt(["status": #""flying""#]), failsAt: "\(cs).status")
        b.add(r, "note 5", rt(["note": "5"]), failsAt: "\(cs).note")
        b.start(r, "start: route name", #"{"routeName":"12"}"#, rt())
    }
}
