import ActivityKit
import Foundation

struct ParcelAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var status: String           // "picked_up", "in_transit", "out_for_delivery", "delivered"
        var location: String         // the last scan's place
        var stopsAway: Int?          // out for delivery: the driver's stops before this one
        var etaMinutes: Int?
        var updatedAt: Date          // when the courier's handheld sent the status
    }

    let parcelId: String
    let trackingNumber: String
}
