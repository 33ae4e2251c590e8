import APNsCore

/// The push every benchmark sends: the same bytes for the engine, the libcurl reference loop and h2load.
public enum BenchDefaults {
    public static let topic = "com.example.app"
    public static let pushType = PushType.alert
    public static let deviceToken = String(repeating: "ab", count: 32)
    /// A Live Activity update with an alert, 380 bytes or so: the size of the shipped apps' pushes.
    public static let body: [UInt8] = Array(#"""
        {"aps":{"timestamp":1744797892,"attributes-type":"LeaveRequestAttributes","attributes":{"id":"E0D6A1B2-7C3D-4E5F-8A9B-0C1D2E3F4A5B","studentName":"John Doe","studentId":1427,"requestTime":"2025-04-16T10:00:00Z","reason":"Doctor appointment"},"content-state":{"status":"approved","responseTime":"2025-04-16T10:04:52Z","respondedBy":"Jane Smith"},"event":"update","alert":{"title":"Leave Request Update","body":"Your leave request status has been updated."}},"activity-id":"E0D6A1B2-7C3D-4E5F-8A9B-0C1D2E3F4A5B"}
        """#.utf8)
}
