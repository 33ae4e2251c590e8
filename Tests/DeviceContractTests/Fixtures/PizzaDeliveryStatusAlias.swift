// The same model with the alias the other way round: ContentState names a struct declared beside it.
import ActivityKit
import Foundation

struct PizzaDeliveryStatus: Codable, Hashable {
    var driverName: String
    var estimatedDeliveryTime: ClosedRange<Date>
}

struct PizzaDeliveryAttributes: ActivityAttributes {
    typealias ContentState = PizzaDeliveryStatus

    var numberOfPizzas: Int
    var totalAmount: String
}
