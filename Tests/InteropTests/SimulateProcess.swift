import APNsCore
import Foundation
import XCTest

/// `apnsbench simulate` as a subprocess, as a user runs it: started with a key written to a .p8, read
/// until it prints `ready`, stopped with SIGTERM, its counters read from its output.
final class SimulateProcess {
    let key = SigningKey.generate(keyID: "INTEROP001", teamID: "INTEROPTM1")
    let bundleID = "com.example.interop"
    let folder: URL
    let process = Process()
    private let output = Pipe()
    private let lines = LineCollector()
    private(set) var url = ""
    private(set) var caPath = ""
    var keyPath: String { folder.appendingPathComponent("AuthKey_\(key.keyID).p8").path }
    var host: String { URL(string: url)?.host ?? "127.0.0.1" }
    var port: Int { URL(string: url)?.port ?? 0 }

    init(arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(key.privateKey.pkcs8PEM.utf8).write(to: URL(fileURLWithPath: keyPath))
        process.executableURL = try Self.binary(file: file, line: line)
        process.arguments = ["simulate", "--port", "0", "--key-path", keyPath, "--key-id", key.keyID, "--team-id", key.teamID,
                             "--bundle-id", bundleID, "--ca-out", folder.appendingPathComponent("ca.pem").path] + arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
        lines.readInOrder(output.fileHandleForReading)
        guard lines.wait(timeout: 30, until: { $0.contains { $0.hasPrefix("ready") } }) else {
            process.terminate()
            throw InteropError("apnsbench simulate did not print 'ready' within 30 s; it printed:\n\(lines.text)")
        }
        for l in lines.all {
            if l.hasPrefix("url: ") { url = String(l.dropFirst(5)) }
            if l.hasPrefix("ca: ") { caPath = String(l.dropFirst(4)) }
        }
    }

    /// `bearer <JWT>` for the registered key, signed now.
    var bearer: String { "bearer " + ProviderTokenCache.makeJWT(key: key, issuedAt: Int(Date().timeIntervalSince1970)) }

    /// Stops it with SIGTERM and returns everything it printed.
    func stop() -> String {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        _ = lines.wait(timeout: 10) { _ in false } || true
        try? FileManager.default.removeItem(at: folder)
        return lines.text
    }

    /// The apnsbench executable next to the test bundle (`swift build --build-tests` builds it).
    static func binary(file: StaticString, line: UInt) throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("apnsbench"),
            Bundle.main.bundleURL.appendingPathComponent("apnsbench"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("apnsbench"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw InteropError("the apnsbench executable is not built next to the tests (looked in \(candidates.map(\.path))): run `swift build --build-tests` (scripts/test.sh does)")
        }
        return found
    }
}

/// Lines a subprocess printed, for waiting on without sleeping.
final class LineCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer = Data()
    private var closed = false

    /// Reads `handle` to its end on a thread of its own and closes: one reader, so chunks are appended in
    /// the order they were written (Foundation's readabilityHandler may run its calls on different threads).
    func readInOrder(_ handle: FileHandle) {
        let source = UncheckedHandle(handle)
        let reader = Thread { [self] in
            while true {
                let d = source.handle.availableData
                if d.isEmpty { break }
                append(d)
            }
            close()
        }
        reader.name = "tool-output"
        reader.start()
    }

    func append(_ data: Data) { condition.lock(); buffer.append(data); condition.broadcast(); condition.unlock() }
    func close() { condition.lock(); closed = true; condition.broadcast(); condition.unlock() }

    var text: String { condition.lock(); defer { condition.unlock() }; return String(decoding: buffer, as: UTF8.self) }
    var all: [String] { text.split(separator: "\n").map(String.init) }

    /// Waits until `predicate` holds over the lines or the output closed; false on timeout or close.
    func wait(timeout: Double, until predicate: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
            if predicate(lines) { return true }
            if closed || Date() > deadline { return false }
            _ = condition.wait(until: deadline)
        }
    }
}

/// A file handle read by one thread only, the reader's.
private struct UncheckedHandle: @unchecked Sendable {
    let handle: FileHandle
    init(_ handle: FileHandle) { self.handle = handle }
}

struct InteropError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Starts a tool with `environment` laid over this process's, its output (standard output and error
/// together) collected as it comes.
func launchTool(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (process: Process, output: LineCollector) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    let collector = LineCollector()
    try p.run()
    collector.readInOrder(pipe.fileHandleForReading)
    return (p, collector)
}

/// Runs a tool to completion and returns its exit status and output.
func runTool(_ path: String, _ arguments: [String], timeout: Double = 120) throws -> (status: Int32, output: String) {
    let (p, collector) = try launchTool(path, arguments)
    let deadline = Date().addingTimeInterval(timeout)
    while p.isRunning && Date() < deadline { _ = collector.wait(timeout: 0.5) { _ in false } }
    if p.isRunning { p.terminate(); throw InteropError("\(path) \(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s:\n\(collector.text)") }
    p.waitUntilExit()
    _ = collector.wait(timeout: 5) { _ in false }
    return (p.terminationStatus, collector.text)
}

/// The path of `tool` on PATH, or a test failure telling how to install it.
func requireTool(_ tool: String, package: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(dir)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw InteropError("\(tool) (\(package)) is not installed: run scripts/install-deps.sh --test")
}
