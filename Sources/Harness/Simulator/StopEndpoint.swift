import Foundation

/// `simulate --control-listen ADDR:PORT`: `POST /stop` (HTTP/1.1) asks a standalone simulator to stop as
/// SIGTERM would, for a CI job that cannot signal the process (a service container, another step). The
/// answer is 202 at once; the report is written after the simulator's graceful stop. Any other path is
/// 404, any other method 405.
public final class StopEndpoint {
    private let server: SmallHTTPServer
    private let requested = StopFlag()
    public var address: String { server.address }
    public var port: Int { server.port }

    public init(listen: String) throws {
        let flag = requested
        server = try SmallHTTPServer(listen: listen, flag: "--control-listen", example: "127.0.0.1:0", closesAfterAnswer: true) { method, path in
            if path != "/stop" { return .init(status: .notFound, body: "apnsbench simulate serves POST /stop\n") }
            if method != .POST { return .init(status: .methodNotAllowed, body: "POST /stop\n") }
            flag.set()
            return .init(status: .accepted, body: "stopping: the report is written once the simulator has stopped\n")
        }
    }

    /// Whether `POST /stop` has come.
    public var stopRequested: Bool { requested.isSet }

    public func close() { server.stop() }
}

private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
