import Foundation

/// A process a test started, waited for with a bound. Its standard output and error are read as they come
/// on threads of their own, so a child that prints a lot never blocks on a full pipe while the test waits.
/// A wait that outlasts its bound kills the child (SIGTERM, then SIGKILL) and throws ``ChildProcessTimeout``,
/// naming the command and the bound: the bound is a guard against a hang, never a time the test asserts.
public final class ChildProcess: @unchecked Sendable {
    /// The bound a wait gets unless told otherwise: generous, since a loaded machine is slow.
    public static let defaultBound: Double = 300
    /// How long a SIGTERM'd child gets before SIGKILL, unless a wait is told otherwise.
    public static let termGrace: Double = 10

    /// The command as a person would type it (the executable's file name, then the arguments).
    public let command: String
    /// Standard output; standard error too unless the process was started with `separateErrors`.
    public let output = LineCollector()
    /// Standard error when the process was started with `separateErrors`; nil otherwise.
    public let errors: LineCollector?
    private let process = Process()
    private let exitFlag = ExitFlag()

    /// Starts `executable` with `arguments`, `environment` laid over this process's, in `directory`.
    /// - Parameter separateErrors: read standard error apart from standard output (``errors``).
    /// - Parameter input: what the child reads on standard input (written on a thread of its own, then closed);
    ///   nil gives it an empty standard input.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
                separateErrors: Bool = false, input: Data? = nil) throws {
        command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        process.standardOutput = out
        let stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        let err = separateErrors ? Pipe() : out
        process.standardError = err
        errors = separateErrors ? LineCollector() : nil
        process.terminationHandler = { [exitFlag] _ in exitFlag.set() }
        try process.run()
        if let stdin, let input {
            let writer = stdin.fileHandleForWriting
            Thread.detachNewThread {
                try? writer.write(contentsOf: input)
                try? writer.close()
            }
        }
        output.readInOrder(out.fileHandleForReading)
        if let errors { errors.readInOrder(err.fileHandleForReading) }
    }

    /// Starts `path` (a file path) with `arguments`.
    public convenience init(_ path: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
                            separateErrors: Bool = false, input: Data? = nil) throws {
        try self.init(URL(fileURLWithPath: path), arguments, environment: environment, directory: directory, separateErrors: separateErrors,
                      input: input)
    }

    /// A child still running when the test lets go of it (a test that threw before its wait) is killed,
    /// so it never outlives the test.
    deinit {
        if isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    public var processIdentifier: Int32 { process.processIdentifier }
    public var isRunning: Bool { !exitFlag.wait(0) }

    /// Sends `signal` to the child (nothing if it exited).
    public func send(_ signal: Int32) {
        guard isRunning else { return }
        kill(process.processIdentifier, signal)
    }

    /// SIGINT, as Ctrl-C sends it.
    public func interrupt() { send(SIGINT) }
    /// SIGTERM, as a scheduler stopping it sends it.
    public func terminate() { send(SIGTERM) }

    /// Waits up to `bound` seconds for the child to exit, then for its output to close, and returns its exit
    /// status. Past the bound the child is killed (SIGTERM, then SIGKILL after `grace` seconds) and
    /// ``ChildProcessTimeout`` thrown.
    @discardableResult
    public func wait(bound: Double = ChildProcess.defaultBound, grace: Double = ChildProcess.termGrace) throws -> Int32 {
        guard exitedWithin(bound) else {
            kill(process.processIdentifier, SIGTERM)
            var how = "SIGTERM"
            if !exitedWithin(grace) {
                kill(process.processIdentifier, SIGKILL)
                how += ", then SIGKILL \(Int(grace)) s later"
                _ = exitedWithin(Self.termGrace)
            }
            _ = output.waitClosed(timeout: Self.termGrace)
            throw ChildProcessTimeout(command: command, bound: bound, killedWith: how, output: output.text + (errors?.text ?? ""))
        }
        // The output closes once every holder of the pipe exited; a grandchild that keeps it open is not
        // waited for past the grace.
        _ = output.waitClosed(timeout: Self.termGrace)
        _ = errors?.waitClosed(timeout: Self.termGrace)
        return process.terminationStatus
    }

    /// Stops the child with SIGTERM and waits for it with `bound`; its exit status.
    @discardableResult
    public func stop(bound: Double = ChildProcess.defaultBound) throws -> Int32 {
        terminate()
        return try wait(bound: bound)
    }

    private func exitedWithin(_ seconds: Double) -> Bool { exitFlag.wait(seconds) }
}

/// Set once, when the child exited (Process's termination handler); waited on with a deadline.
private final class ExitFlag: @unchecked Sendable {
    private let condition = NSCondition()
    private var isSet = false

    func set() {
        condition.lock()
        isSet = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether it was set within `seconds`.
    func wait(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !isSet {
            if !condition.wait(until: deadline) { return isSet }
        }
        return true
    }
}

/// A child that did not exit within its bound, named with the bound and what it printed.
public struct ChildProcessTimeout: Error, CustomStringConvertible {
    public let command: String
    public let bound: Double
    public let killedWith: String
    public let output: String

    public var description: String {
        "`\(command)` did not exit within its bound of \(Int(bound)) s (a hang guard, not a time limit); killed with \(killedWith). It printed:\n\(output)"
    }
}

/// Runs `executable` to its end (bounded by `bound` seconds) and returns its exit status and output
/// (standard output and error together).
public func runChild(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
                     bound: Double = ChildProcess.defaultBound) throws -> (status: Int32, output: String) {
    let child = try ChildProcess(executable, arguments, environment: environment, directory: directory)
    let status = try child.wait(bound: bound)
    return (status, child.output.text)
}

/// ``runChild(_:_:environment:directory:bound:)`` for a file path.
public func runChild(_ path: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
                     bound: Double = ChildProcess.defaultBound) throws -> (status: Int32, output: String) {
    try runChild(URL(fileURLWithPath: path), arguments, environment: environment, directory: directory, bound: bound)
}
