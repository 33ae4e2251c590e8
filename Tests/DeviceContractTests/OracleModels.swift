// Each model below exists twice: as a string constant (what ModelDeclaration.parse reads) and as real
// Swift code (what JSONDecoder decodes into). OracleModelSourceTests checks that both spellings are the
// same text, so the oracle decodes into exactly the declarations the parser was given.
import Foundation

/// ActivityKit is not available on Linux; this protocol has its requirements (and SendableMetatype,
/// so that the oracle's decoding closures may capture the types).
protocol ActivityAttributes: Decodable, Encodable, SendableMetatype {
    associatedtype ContentState: Codable & Hashable
}

// MARK: - Leave requests (the same declaration as profiles/models/LeaveRequestAttributes.swift)

let leaveRequestDeclaration = #"""
struct LeaveRequestAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var status: String           // "sent", "pending", "approved", "rejected", "finished"
        var responseTime: Date?      // When the staff responded
        var respondedBy: String?     // Name of the staff member
    }

    let id: String                  // The leave request ID
    let studentName: String         // Student's name
    let studentId: Int              // Student's ID
    let requestTime: Date           // When the request was created
    let reason: String              // Reason for the request
}
"""#

struct LeaveRequestAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var status: String           // "sent", "pending", "approved", "rejected", "finished"
        var responseTime: Date?      // When the staff responded
        var respondedBy: String?     // Name of the staff member
    }

    let id: String                  // The leave request ID
    let studentName: String         // Student's name
    let studentId: Int              // Student's ID
    let requestTime: Date           // When the request was created
    let reason: String              // Reason for the request
}

// MARK: - Order changes (the same declaration as profiles/models/OrderChangesAttributes.swift)

let orderChangesDeclaration = #"""
struct OrderChangesAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var totalOrders: Int      // Tổng số đơn hàng đang chờ
        var lateOrders: Int       // Số đơn hàng trễ
        var totalItems: Int       // Tổng số món
        var lastUpdated: Double   // Unix timestamp (giây) — thời điểm cập nhật
    }
}
"""#

struct OrderChangesAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var totalOrders: Int      // Tổng số đơn hàng đang chờ
        var lateOrders: Int       // Số đơn hàng trễ
        var totalItems: Int       // Tổng số món
        var lastUpdated: Double   // Unix timestamp (giây) — thời điểm cập nhật
    }
}

// MARK: - Deliveries: CodingKeys, raw-value enums, nested and optional structs, URL, UUID

let deliveryDeclaration = #"""
/// A courier delivery tracked on the Lock Screen.
@available(iOS 16.1, *)
public struct DeliveryAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        public enum Stage: String, Codable, Hashable {
            case pickedUp = "picked_up", inTransit = "in_transit", delivered
        }

        public enum Priority: Int, Codable, Hashable {
            case low = 1, normal, high
        }

        public struct Courier: Codable, Hashable {
            let name: String
            let phone: String?
            let photo: URL?
        }

        var stage: Stage
        var priority: Priority
        var etaSeconds: Int
        var courier: Courier
        var backupCourier: Courier?
        var stops: [Courier] = []
        /* Set by the app, never decoded. */
        let schemaVersion = 2
        var note: String? = nil
        var updatedAt: Date

        var isLate: Bool { etaSeconds < 0 }
        static let placeholder = "—"

        enum CodingKeys: String, CodingKey {
            case stage, priority
            case etaSeconds = "eta_s"
            case courier, backupCourier = "backup_courier"
            case stops, note
            case updatedAt = "updated_at"
        }
    }

    public let orderID: UUID
    public let merchant: String
    public let trackingURL: URL
    var placedAt: Date

    func summary() -> String { "\(merchant) \(orderID)" }

    init(orderID: UUID, merchant: String, trackingURL: URL, placedAt: Date) {
        self.orderID = orderID
        self.merchant = merchant
        self.trackingURL = trackingURL
        self.placedAt = placedAt
    }
}
"""#

/// A courier delivery tracked on the Lock Screen.
@available(iOS 16.1, *)
public struct DeliveryAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        public enum Stage: String, Codable, Hashable {
            case pickedUp = "picked_up", inTransit = "in_transit", delivered
        }

        public enum Priority: Int, Codable, Hashable {
            case low = 1, normal, high
        }

        public struct Courier: Codable, Hashable {
            let name: String
            let phone: String?
            let photo: URL?
        }

        var stage: Stage
        var priority: Priority
        var etaSeconds: Int
        var courier: Courier
        var backupCourier: Courier?
        var stops: [Courier] = []
        /* Set by the app, never decoded. */
        let schemaVersion = 2
        var note: String? = nil
        var updatedAt: Date

        var isLate: Bool { etaSeconds < 0 }
        static let placeholder = "—"

        enum CodingKeys: String, CodingKey {
            case stage, priority
            case etaSeconds = "eta_s"
            case courier, backupCourier = "backup_courier"
            case stops, note
            case updatedAt = "updated_at"
        }
    }

    public let orderID: UUID
    public let merchant: String
    public let trackingURL: URL
    var placedAt: Date

    func summary() -> String { "\(merchant) \(orderID)" }

    init(orderID: UUID, merchant: String, trackingURL: URL, placedAt: Date) {
        self.orderID = orderID
        self.merchant = merchant
        self.trackingURL = trackingURL
        self.placedAt = placedAt
    }
}

// MARK: - Telemetry: integer widths, Float, Bool, arrays, dictionaries, optional elements

let telemetryDeclaration = #"""
struct TelemetryAttributes: ActivityAttributes, Sendable {
    struct ContentState: Codable, Hashable, Sendable {
        var level: Int8
        var port: UInt16
        var counter: UInt64
        var ratio: Float
        var temperature: Double
        var charging: Bool
        var samples: [Int]
        var gaps: [Int?]
        var totals: [String: Int]
        var labels: [Int: String]
        var checkpoints: [Date]
        var deviceID: UUID
        var lastSeen: Date?
        var window: Optional<Int>
        var retries = 0
    }

    var sensor: String
    var installedAt: Date
}
"""#

struct TelemetryAttributes: ActivityAttributes, Sendable {
    struct ContentState: Codable, Hashable, Sendable {
        var level: Int8
        var port: UInt16
        var counter: UInt64
        var ratio: Float
        var temperature: Double
        var charging: Bool
        var samples: [Int]
        var gaps: [Int?]
        var totals: [String: Int]
        var labels: [Int: String]
        var checkpoints: [Date]
        var deviceID: UUID
        var lastSeen: Date?
        var window: Optional<Int>
        var retries = 0
    }

    var sensor: String
    var installedAt: Date
}
