import ActivityKit
import Foundation

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
