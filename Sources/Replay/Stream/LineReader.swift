#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Reads a text file line by line in constant memory, with POSIX `open`/`read`.
///
/// - Lines end at `\n`; a `\r` before it is removed (CRLF files), and a last line without `\n` is
///   still a line. A UTF-8 byte-order mark at the start of the file is dropped.
/// - Blank lines (empty, or only spaces, tabs, `\r`, vertical tabs and form feeds) are skipped, but
///   they count: `Line.number` and `lineNumber` are physical line numbers, 1-based.
/// - A line longer than `maxLineBytes` (not counting its `\n`/`\r\n`) makes `next()` throw
///   `StreamError.lineTooLong(line:)`. The line is never held whole: once it outgrows the buffer its
///   bytes are dropped as they are read. The next call continues with the following line.
///
/// Memory: one buffer, allocated as needed and never larger than `chunkSize + maxLineBytes + 1`
/// bytes, plus one small array per returned line. The file descriptor is closed at end of file
/// (or when the reader is released).
///
/// Not thread-safe: one reader belongs to one task.
public final class LineReader {
    /// One non-blank line.
    public struct Line: Equatable, Sendable {
        /// The physical line number, 1-based.
        public let number: Int
        /// The line's bytes without the line terminator (`\n` or `\r\n`). Indices start at 0.
        /// The slice owns its storage (it does not pin the reader's buffer), so it may be kept.
        public let bytes: ArraySlice<UInt8>

        public init(number: Int, bytes: ArraySlice<UInt8>) {
            self.number = number
            self.bytes = bytes
        }

        /// The line decoded as UTF-8 (invalid sequences become U+FFFD). For messages and tests.
        public var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// The path given to `init`.
    public let path: String
    /// Bytes asked of each `read(2)` call.
    public let chunkSize: Int
    /// The longest line accepted, in bytes, without its terminator.
    public let maxLineBytes: Int
    /// The number of the last line consumed (returned, skipped as blank, or too long); 0 before
    /// the first. After the end of the file, the file's line count.
    public private(set) var lineNumber: Int = 0

    /// The file's size in bytes when it is a regular file (progress: ``bytesConsumed`` of it), else nil.
    public let fileSize: Int?
    /// Bytes of the file consumed so far (up to the end of the last line returned or skipped). Safe to
    /// read from any thread: a progress line reads it while the reader's own thread goes on.
    public var bytesConsumed: Int { consumed.load(ordering: .relaxed) }

    /// Bytes currently allocated for the read buffer (diagnostics; at most
    /// `chunkSize + maxLineBytes + 1`).
    public var bufferCapacity: Int { capacity }

    private var fd: Int32
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Unconsumed data is `buffer[start..<end]`; `buffer[start..<scanned]` holds no `\n`.
    private var start = 0
    private var end = 0
    private var scanned = 0
    private var atEOF = false
    /// Inside a line that outgrew the limit: its bytes are dropped until its `\n`.
    private var discarding = false
    /// Bytes `read(2)` returned in all.
    private var fileBytesRead = 0
    private let consumed = Atomic<Int>(0)

    /// Opens `path` for reading.
    /// - Parameters:
    ///   - path: The file to read.
    ///   - chunkSize: Bytes per `read(2)` call (default 64 KiB); at least 1.
    ///   - maxLineBytes: The longest line accepted, in bytes (default 1 MiB); at least 1.
    /// - Throws: `StreamError.cannotOpen(path:reason:)` with the errno text if the file is missing,
    ///   unreadable or a directory.
    public convenience init(path: String, chunkSize: Int = 1 << 16, maxLineBytes: Int = 1 << 20) throws {
        try self.init(checkedPath: path, chunkSize: chunkSize, maxLineBytes: maxLineBytes)
    }

    /// `init(path:chunkSize:maxLineBytes:)` with a typed error, for `EventStreamReader`.
    init(checkedPath path: String, chunkSize: Int, maxLineBytes: Int) throws(StreamError) {
        precondition(chunkSize >= 1, "LineReader: chunkSize must be at least 1")
        precondition(maxLineBytes >= 1, "LineReader: maxLineBytes must be at least 1")
        self.path = path
        self.chunkSize = chunkSize
        self.maxLineBytes = maxLineBytes

        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: LineReader.errnoText(errno))
        }
        var info = stat()
        let statted = fstat(descriptor, &info) == 0
        if statted, (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .cannotOpen(path: path, reason: LineReader.errnoText(EISDIR))
        }
        self.fileSize = statted && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        self.fd = descriptor
        // Start small: most lines are short; the buffer grows only for long lines.
        self.capacity = chunkSize + min(maxLineBytes + 1, 4096)
        self.buffer = .allocate(capacity: capacity)
    }

    deinit {
        closeFile()
        buffer.deallocate()
    }

    /// The next non-blank line, or nil at the end of the file.
    /// - Throws: `StreamError.lineTooLong(line:)` for a line over `maxLineBytes` (call `next()`
    ///   again to go on); `StreamError.readFailed(path:reason:)` if `read(2)` fails (final).
    public func next() throws -> Line? {
        try nextLine()
    }

    /// `next()` with a typed error (the public API throws untyped errors: see `StreamError`).
    func nextLine() throws(StreamError) -> Line? {
        while true {
            if scanned < end {
                if let hit = memchr(buffer + scanned, 0x0A, end - scanned) {
                    let newline = hit.assumingMemoryBound(to: UInt8.self) - buffer
                    let lineStart = start
                    start = newline + 1
                    scanned = start
                    lineNumber += 1
                    consumed.store(fileBytesRead - (end - start), ordering: .relaxed)
                    if discarding {
                        discarding = false
                        throw .lineTooLong(line: lineNumber)
                    }
                    if let line = try finishLine(from: lineStart, to: newline) { return line }
                    continue
                }
                scanned = end
            }
            if atEOF {
                if discarding {
                    discarding = false
                    lineNumber += 1
                    throw .lineTooLong(line: lineNumber)
                }
                guard start < end else { return nil }
                let lineStart = start
                start = end
                scanned = end
                lineNumber += 1
                consumed.store(fileBytesRead, ordering: .relaxed)
                if let line = try finishLine(from: lineStart, to: end) { return line }
                continue
            }
            try fill()
        }
    }

    /// Turns `buffer[from..<to]` (the line without `\n`) into a `Line`, or nil if it is blank.
    private func finishLine(from: Int, to: Int) throws(StreamError) -> Line? {
        var lineStart = from
        var lineEnd = to
        if lineEnd > lineStart && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        if lineNumber == 1, lineEnd - lineStart >= 3,
           buffer[lineStart] == 0xEF, buffer[lineStart + 1] == 0xBB, buffer[lineStart + 2] == 0xBF {
            lineStart += 3
        }
        if lineEnd - lineStart > maxLineBytes { throw .lineTooLong(line: lineNumber) }
        var index = lineStart
        while index < lineEnd {
            switch buffer[index] {
            case 0x20, 0x09, 0x0D, 0x0B, 0x0C: index += 1
            default:
                let bytes = Array(UnsafeBufferPointer(start: buffer + lineStart, count: lineEnd - lineStart))
                return Line(number: lineNumber, bytes: bytes[...])
            }
        }
        return nil
    }

    /// Makes room and reads one chunk. Called only when `buffer[start..<end]` holds no `\n`.
    private func fill() throws(StreamError) {
        let pending = end - start
        if discarding || pending > maxLineBytes + 1 {
            // The pending bytes belong to a line over the limit (+1 leaves room for its `\r`).
            discarding = true
            start = 0
            end = 0
        } else if start > 0 {
            if pending > 0 { memmove(buffer, buffer + start, pending) }
            start = 0
            end = pending
        }
        scanned = end
        if end + chunkSize > capacity { grow(to: end + chunkSize) }

        var count: Int
        repeat {
            count = read(fd, buffer + end, chunkSize)
        } while count < 0 && errno == EINTR
        if count < 0 {
            let reason = LineReader.errnoText(errno)
            atEOF = true
            start = 0
            end = 0
            scanned = 0
            discarding = false
            closeFile()
            throw .readFailed(path: path, reason: reason)
        }
        if count == 0 {
            atEOF = true
            closeFile()
        } else {
            end += count
            fileBytesRead += count
        }
    }

    /// Grows the buffer (after compaction, so the data starts at 0) to at least `needed` bytes.
    private func grow(to needed: Int) {
        let limit = chunkSize + maxLineBytes + 1
        let newCapacity = min(max(needed, capacity * 2), limit)
        let newBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        if end > 0 { newBuffer.update(from: buffer, count: end) }
        buffer.deallocate()
        buffer = newBuffer
        capacity = newCapacity
    }

    private func closeFile() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    private static func errnoText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
