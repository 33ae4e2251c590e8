// A model in the shape of Apple's documented Live Activity sample (a pizza order on its way), written for
// these tests: the state is reached through a type alias, and the delivery window is a ClosedRange<Date>.
import ActivityKit
import Foundation
import SwiftUI

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

// How the app starts one, kept in the same file as many apps do.
@available(iOS 16.1, *)
func startPizzaDelivery() throws -> Activity<PizzaDeliveryAttributes> {
    let attributes = PizzaDeliveryAttributes(numberOfPizzas: 2, totalAmount: "$42.90", orderNumber: "12345")
    let now = Date()
    let status = PizzaDeliveryAttributes.PizzaDeliveryStatus(
        driverName: "Anne", estimatedDeliveryTime: now...now.addingTimeInterval(30 * 60))
    let content = ActivityContent(state: status, staleDate: nil)
    return try Activity.request(attributes: attributes, content: content, pushType: .token)
}
