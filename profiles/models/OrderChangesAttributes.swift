import ActivityKit
import Foundation

struct OrderChangesAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var totalOrders: Int      // Tổng số đơn hàng đang chờ
        var lateOrders: Int       // Số đơn hàng trễ
        var totalItems: Int       // Tổng số món
        var lastUpdated: Double   // Unix timestamp (giây) — thời điểm cập nhật
    }
}
