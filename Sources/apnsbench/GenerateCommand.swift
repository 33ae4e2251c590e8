import ArgumentParser
import Foundation
import Replay

/// `apnsbench generate WORKLOAD`: writes a deterministic synthetic recording.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a synthetic recorded stream (NDJSON) for a workload. Same parameters and seed, same bytes.",
        discussion: """
            Examples:
              apnsbench generate leave-requests --requests 360 --seed 7 --out profiles/streams/leave-requests.ndjson
              apnsbench generate leave-requests --requests 360 --seed 7 --form api --out profiles/streams/leave-requests-api.ndjson
              apnsbench generate order-changes --events 1000000 --devices 50000 --stores 500 --seed 7 \\
                  --out s.ndjson --dead-tokens s.dead-tokens

            leave-requests --form api writes the same events (same seed: same values,
            times and order) as the app's own API calls, one a line:
              {"at", "method", "path", "body", "response" (creation only)}
              POST /api/leave-requests
                body: student_id, student_name, request_type, reason?,
                      live_activity_id?, live_activity_token?
                response: {"status": 201,
                           "body": {"success": true, "request": {"id": 1000, ...}}}
              PUT /api/leave-requests/:requestId/live-activity
                body: live_activity_id, live_activity_token
              PUT /api/leave-requests/:requestId/status
                body: status, staff_id, staff_name
            """)

    enum Workload: String, ExpressibleByArgument, CaseIterable {
        case leaveRequests = "leave-requests"
        case orderChanges = "order-changes"
        case cdblLeave = "cdbl-leave"
        case ksrCranes = "ksr-cranes"
        case everdayApprovals = "everday-approvals"
    }

    @Argument(help: ArgumentHelp("The workload: \(Workload.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "WORKLOAD"))
    var workload: Workload

    @Option(name: .long, help: "leave-requests: requests to generate (each gives about 3 events).")
    var requests: Int = 360

    /// How leave-requests lines are written.
    enum Form: String, ExpressibleByArgument, CaseIterable {
        case events, api
    }

    @Option(name: .long, help: "leave-requests: 'events' (leave.created, leave.token, leave.status lines) or 'api' (the same events as the app's API calls: method, path, body, response).")
    var form: Form = .events

    @Option(name: .long, help: "Events to generate (workloads other than leave-requests).")
    var events: Int = 10_000

    @Option(name: .long, help: "order-changes: devices.")
    var devices: Int = 2_000

    @Option(name: .long, help: "order-changes: stores.")
    var stores: Int = 50

    @Option(name: .long, help: "Random seed.")
    var seed: UInt64 = 7

    @Option(name: .long, help: ArgumentHelp("Output file (default: standard output).", valueName: "FILE"))
    var out: String?

    @Option(name: .long, help: ArgumentHelp("order-changes: write the planted dead tokens here, one a line (for the simulator's registry).", valueName: "FILE"))
    var deadTokens: String?

    @Flag(name: .long, help: "order-changes: each activity subscribes to its first store's broadcast channel when it starts (input_push_channel on device.register), for runs with delivery: broadcast.")
    var channels = false

    func validate() throws {
        guard requests > 0 else { throw ValidationError("--requests must be positive") }
        guard events > 0 else { throw ValidationError("--events must be positive") }
        guard devices > 0, stores > 0 else { throw ValidationError("--devices and --stores must be positive") }
        if deadTokens != nil, workload != .orderChanges { throw ValidationError("--dead-tokens goes with order-changes") }
        if channels, workload != .orderChanges { throw ValidationError("--channels goes with order-changes") }
        if form != .events, workload != .leaveRequests { throw ValidationError("--form goes with leave-requests") }
    }

    func run() throws {
        let output = try BufferedOutput(path: out)
        let dead = try deadTokens.map { try BufferedOutput(path: $0) }
        switch workload {
        case .leaveRequests:
            var generator = LeaveRequestGenerator(requests: requests, seed: seed)
            generator.form = form == .api ? .api : .events
            try generator.write(output.write)
        case .orderChanges:
            var generator = OrderChangesGenerator(events: events, devices: devices, stores: stores, seed: seed)
            generator.channels = channels
            try generator.write(output.write, deadToken: { token in try dead?.write(Array((token + "\n").utf8)) })
        case .cdblLeave:
            try CDBLLeaveGenerator(events: events, seed: seed).write(output.write)
        case .ksrCranes:
            try KSRCranesGenerator(events: events, seed: seed).write(output.write)
        case .everdayApprovals:
            try EverdayApprovalsGenerator(events: events, seed: seed).write(output.write)
        }
        try output.close()
        try dead?.close()
    }
}

/// Writes bytes to a file (or standard output) in 64 KiB blocks.
final class BufferedOutput {
    private let handle: FileHandle
    private let path: String?
    private var buffer: [UInt8] = []

    init(path: String?) throws {
        self.path = path
        if let path {
            guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
                throw ValidationError("cannot write \(path)")
            }
            handle = h
        } else {
            handle = FileHandle.standardOutput
        }
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        if path != nil { try handle.close() }
    }
}
