import ArgumentParser
import Foundation
import Replay

/// `apnsbench generate WORKLOAD`: writes a deterministic synthetic recording.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a synthetic recorded stream (NDJSON) for a workload. Same seed, same bytes.")

    enum Workload: String, ExpressibleByArgument, CaseIterable {
        case leaveRequests = "leave-requests"
        case cdblLeave = "cdbl-leave"
        case ksrCranes = "ksr-cranes"
        case everdayApprovals = "everday-approvals"
    }

    @Argument(help: ArgumentHelp("The workload: \(Workload.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "WORKLOAD"))
    var workload: Workload

    @Option(name: .long, help: "leave-requests: requests to generate (each gives about 3 events).")
    var requests: Int = 360

    @Option(name: .long, help: "Events to generate (workloads other than leave-requests).")
    var events: Int = 10_000

    @Option(name: .long, help: "Random seed.")
    var seed: UInt64 = 7

    @Option(name: .long, help: ArgumentHelp("Output file (default: standard output).", valueName: "FILE"))
    var out: String?

    func validate() throws {
        guard requests > 0 else { throw ValidationError("--requests must be positive") }
        guard events > 0 else { throw ValidationError("--events must be positive") }
    }

    func run() throws {
        let handle: FileHandle
        if let out {
            guard FileManager.default.createFile(atPath: out, contents: nil) , let h = FileHandle(forWritingAtPath: out) else {
                throw ValidationError("cannot write \(out)")
            }
            handle = h
        } else {
            handle = FileHandle.standardOutput
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        func emit(_ line: [UInt8]) {
            buffer.append(contentsOf: line)
            if buffer.count >= 1 << 16 { handle.write(Data(buffer)); buffer.removeAll(keepingCapacity: true) }
        }
        switch workload {
        case .leaveRequests: LeaveRequestGenerator(requests: requests, seed: seed).write(emit)
        case .cdblLeave: CDBLLeaveGenerator(events: events, seed: seed).write(emit)
        case .ksrCranes: KSRCranesGenerator(events: events, seed: seed).write(emit)
        case .everdayApprovals: EverdayApprovalsGenerator(events: events, seed: seed).write(emit)
        }
        handle.write(Data(buffer))
        if out != nil { try handle.close() }
    }
}
