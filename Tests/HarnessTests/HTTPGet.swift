import Foundation

/// One HTTP/1.1 request over a plain socket to 127.0.0.1 (`Connection: close`), read to the server's
/// close: a client with no Foundation networking in it, so it behaves the same on every Linux.
struct HTTPGet {
    struct Response {
        var status: Int
        /// Header names lowercased.
        var headers: [String: String]
        var body: String
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// A TCP connection to 127.0.0.1:`port`, its reads bounded by `bound` seconds (a hang guard).
    static func connect(port: Int, bound: Int = 120) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: bound, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let e = errno
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(e)")
        }
        return fd
    }

    /// Whether something accepts a connection on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        guard let fd = try? connect(port: port) else { return false }
        close(fd)
        return true
    }

    /// `method path` against `port`; reads are bounded by `bound` seconds (a hang guard).
    static func request(_ path: String, method: String = "GET", port: Int, bound: Int = 120) throws -> Response {
        let fd = try connect(port: port, bound: bound)
        defer { close(fd) }
        let request = Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw Failure(description: "send to 127.0.0.1:\(port): errno \(errno)")
        }
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            guard n > 0 else { throw Failure(description: "\(method) \(path) on port \(port): no answer within \(bound) s (errno \(errno))") }
            data += buffer[0..<n]
        }
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure(description: "no header block in: \(text)") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line: \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}
