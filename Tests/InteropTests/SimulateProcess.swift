import APNsCore
import Foundation
import TestSupport
import XCTest

/// `apnsbench simulate` as a subprocess, as a user runs it: started with a key written to a .p8, read
/// until it prints `ready`, stopped with SIGTERM, its counters read from its output.
final class SimulateProcess {
    let key: SigningKey
    let bundleID = "com.example.interop"
    let folder: URL
    let child: ChildProcess
    private var lines: LineCollector { child.output }
    private(set) var url = ""
    private(set) var caPath = ""
    var keyPath: String { folder.appendingPathComponent("AuthKey_\(key.keyID).p8").path }
    var host: String { URL(string: url)?.host ?? "127.0.0.1" }
    var port: Int { URL(string: url)?.port ?? 0 }

    /// - Parameter restarting: a simulator (stopped or killed, its folder kept) whose key and folder this one
    ///   takes over, as the same server started again.
    init(arguments: [String] = [], restarting earlier: SimulateProcess? = nil) throws {
        key = earlier?.key ?? SigningKey.generate(keyID: "INTEROP001", teamID: "INTEROPTM1")
        folder = try earlier?.folder ?? ScratchFolder.make("interop")
        let keyPath = folder.appendingPathComponent("AuthKey_\(key.keyID).p8").path
        try Data(key.privateKey.pkcs8PEM.utf8).write(to: URL(fileURLWithPath: keyPath))
        child = try ChildProcess(APNsBenchProcess.binary(),
                                 ["simulate", "--port", "0", "--key-path", keyPath, "--key-id", key.keyID, "--team-id", key.teamID,
                                  "--bundle-id", bundleID, "--ca-out", folder.appendingPathComponent("ca.pem").path] + arguments)
        guard lines.wait(timeout: 120, until: { $0.contains { $0.hasPrefix("ready") } }) else {
            _ = try? child.stop()
            throw InteropError("`\(child.command)` did not print 'ready' within 120 s; it printed:\n\(lines.text)")
        }
        for l in lines.all {
            if l.hasPrefix("url: ") { url = String(l.dropFirst(5)) }
            if l.hasPrefix("ca: ") { caPath = String(l.dropFirst(4)) }
        }
    }

    /// `bearer <JWT>` for the registered key, signed now.
    var bearer: String { "bearer " + ProviderTokenCache.makeJWT(key: key, issuedAt: Int(Date().timeIntervalSince1970)) }

    /// Stops it with SIGTERM and returns everything it printed. It stops gracefully: exit 0, its counters
    /// printed. One that does not exit within the bound is killed and the test failed, naming it.
    func stop(file: StaticString = #filePath, line: UInt = #line) -> String {
        let running = child.isRunning
        do {
            let status = try child.stop()
            if running { XCTAssertEqual(status, 0, "apnsbench simulate stops on SIGTERM with exit 0:\n\(lines.text)", file: file, line: line) }
        } catch { XCTFail("\(error)", file: file, line: line) }
        ScratchFolder.remove(folder)
        return lines.text
    }
}

struct InteropError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The path of `tool` on PATH, or a test failure telling how to install it.
func requireTool(_ tool: String, package: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(dir)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw InteropError("\(tool) (\(package)) is not installed: run scripts/install-deps.sh --test")
}
