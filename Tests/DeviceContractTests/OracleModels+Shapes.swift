// More models for the oracle, each twice as in OracleModels.swift: the source the parser reads and the
// same text as code JSONDecoder decodes into (OracleModelSourceTests checks they match).
import Foundation

// MARK: - Pizza deliveries: a type alias for ContentState, and a ClosedRange<Date>

let pizzaDeliveryDeclaration = #"""
struct PizzaDeliveryAttributes: ActivityAttributes {
    public typealias PizzaDeliveryStatus = ContentState

    public struct ContentState: Codable, Hashable {
        var driverName: String
        var estimatedDeliveryTime: ClosedRange<Date>
    }

    var numberOfPizzas: Int
    var totalAmount: String
    var orderNumber: String
}
"""#

struct PizzaDeliveryAttributes: ActivityAttributes {
    public typealias PizzaDeliveryStatus = ContentState

    public struct ContentState: Codable, Hashable {
        var driverName: String
        var estimatedDeliveryTime: ClosedRange<Date>
    }

    var numberOfPizzas: Int
    var totalAmount: String
    var orderNumber: String
}

// MARK: - Xcode's template attributes: one String each side

let orderTrackerDeclaration = #"""
struct OrderTrackerAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        // Values that change while the activity runs.
        var emoji: String
    }

    // Values fixed for the activity's life.
    var name: String
}
"""#

struct OrderTrackerAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        // Values that change while the activity runs.
        var emoji: String
    }

    // Values fixed for the activity's life.
    var name: String
}

// MARK: - Scoreboards: several properties in one var/let, every integer width, Range<Double>, type aliases of standard types

let scoreboardDeclaration = #"""
struct ScoreboardAttributes: ActivityAttributes {
    typealias Points = UInt16

    struct ContentState: Codable, Hashable {
        var home, away: Points
        let period: Int8, overtime: Bool
        var shots: Int16 = 0, fouls: Int32
        var elapsedMillis: Int64
        var attendance: UInt
        var possession: UInt8
        var broadcastID: UInt32
        var sequence: UInt64
        var clock: Range<Double>
        var margin: Int
    }

    let homeTeam, awayTeam: String
    var league: League
    typealias League = String
}
"""#

struct ScoreboardAttributes: ActivityAttributes {
    typealias Points = UInt16

    struct ContentState: Codable, Hashable {
        var home, away: Points
        let period: Int8, overtime: Bool
        var shots: Int16 = 0, fouls: Int32
        var elapsedMillis: Int64
        var attendance: UInt
        var possession: UInt8
        var broadcastID: UInt32
        var sequence: UInt64
        var clock: Range<Double>
        var margin: Int
    }

    let homeTeam, awayTeam: String
    var league: League
    typealias League = String
}

// MARK: - Charging sessions: enums with associated values and without a raw type, Decimal, Set, optionals inside collections

let chargingDeclaration = #"""
struct ChargingAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        enum Phase: Codable, Hashable {
            case idle
            case charging(power: Double)
            case paused(Int, reason: String?)
            case queued(Position)
        }

        struct Position: Codable, Hashable {
            var place: Int
        }

        enum Connector: Codable, Hashable {
            case ccs, chademo, type2
        }

        var phase: Phase
        var connector: Connector?
        var price: Decimal
        var energy: Decimal?
        var tags: Set<String>
        var readings: [Double?]
        var byStall: [String: Int?]
        var grid: [[Int?]]
        var favorites: Set<Int>?
    }

    var stationName: String
    var tariff: Decimal
}
"""#

struct ChargingAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        enum Phase: Codable, Hashable {
            case idle
            case charging(power: Double)
            case paused(Int, reason: String?)
            case queued(Position)
        }

        struct Position: Codable, Hashable {
            var place: Int
        }

        enum Connector: Codable, Hashable {
            case ccs, chademo, type2
        }

        var phase: Phase
        var connector: Connector?
        var price: Decimal
        var energy: Decimal?
        var tags: Set<String>
        var readings: [Double?]
        var byStall: [String: Int?]
        var grid: [[Int?]]
        var favorites: Set<Int>?
    }

    var stationName: String
    var tariff: Decimal
}

// MARK: - Media uploads: Data (base64), URL, UUID, Float, CGFloat

let mediaDeclaration = #"""
struct MediaUploadAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var thumbnail: Data
        var checksum: Data?
        var previewURL: URL
        var mirrors: [URL]
        var jobID: UUID
        var progress: Float
        var scale: CGFloat
    }

    var fileName: String
    var uploadID: UUID
}
"""#

struct MediaUploadAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var thumbnail: Data
        var checksum: Data?
        var previewURL: URL
        var mirrors: [URL]
        var jobID: UUID
        var progress: Float
        var scale: CGFloat
    }

    var fileName: String
    var uploadID: UUID
}

// MARK: - Routes: a type with its own init(from:) (not checked) beside fields that are, ranges of integers and Decimal

let routeDeclaration = #"""
struct RouteAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var waypoint: Waypoint
        var stopsLeft: ClosedRange<Int>
        var fare: ClosedRange<Decimal>?
        var status: Status
        var note: String?
    }

    struct Waypoint: Codable, Hashable {
        var name: String

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            name = (try? container.decode(String.self)) ?? "unknown"
        }
    }

    enum Status: String, Codable, Hashable {
        case boarding, moving, arrived
    }

    typealias Status2 = Status
    var routeName: String
}
"""#

struct RouteAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var waypoint: Waypoint
        var stopsLeft: ClosedRange<Int>
        var fare: ClosedRange<Decimal>?
        var status: Status
        var note: String?
    }

    struct Waypoint: Codable, Hashable {
        var name: String

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            name = (try? container.decode(String.self)) ?? "unknown"
        }
    }

    enum Status: String, Codable, Hashable {
        case boarding, moving, arrived
    }

    typealias Status2 = Status
    var routeName: String
}
