import ArgumentParser
import Foundation

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
