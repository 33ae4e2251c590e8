import CurlReference

/// The bare libcurl loop (CurlReference) from Swift: owns the handle and the body bytes it points at.
public final class ReferenceLoop {
    public enum Drive: String, CaseIterable { case poll, epoll }

    public struct Options {
        public var drive: Drive = .poll
        public var connections = 1
        public var streams = 100
        /// CURLOPT_BUFFERSIZE, CURLOPT_UPLOAD_BUFFERSIZE; 0 = libcurl's default.
        public var bufferSize = 0
        public var uploadBufferSize = 0
        /// Poll drive: wait before refilling the window, as CurlEngine.run does today (see curl_reference.h).
        public var pollWaitFirst = false
        /// Set CURLOPT_URL before every transfer, as the engine does (see curl_reference.h).
        public var setURLPerPush = false
        /// A push unanswered this long fails (CURLOPT_TIMEOUT_MS).
        public var pushTimeoutMillis = 30_000
        /// How many failed or refused pushes a run may have and still count (a measurement, not a check).
        public var maxFailed = 0
        public init() {}
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let handle: OpaquePointer
    private let body: UnsafeMutableRawBufferPointer
    private let maxFailed: Int

    public init(url: String, caPEM: String?, bearer: String, body bytes: [UInt8], options: Options) throws {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        storage.copyBytes(from: bytes)
        var error = [CChar](repeating: 0, count: 512)
        let made: OpaquePointer? = url.withCString { url in
            BenchDefaults.topic.withCString { topic in
                BenchDefaults.pushType.rawValue.withCString { pushType in
                    bearer.withCString { bearer in
                        BenchDefaults.deviceToken.withCString { token in
                            withOptionalCString(caPEM) { ca in
                                var c = curlref_config()
                                c.base_url = url
                                c.ca_pem = ca
                                c.topic = topic
                                c.push_type = pushType
                                c.priority = 10
                                c.authorization = bearer
                                c.device_token = token
                                c.body = UnsafeRawPointer(storage.baseAddress)
                                c.body_length = bytes.count
                                c.connections = options.connections
                                c.streams_per_connection = options.streams
                                c.push_timeout_ms = options.pushTimeoutMillis
                                c.connect_timeout_ms = 10_000
                                c.drive = options.drive == .poll ? CURLREF_DRIVE_POLL : CURLREF_DRIVE_EPOLL
                                c.buffer_size = options.bufferSize
                                c.upload_buffer_size = options.uploadBufferSize
                                c.poll_wait_first = options.pollWaitFirst ? 1 : 0
                                c.set_url_per_push = options.setURLPerPush ? 1 : 0
                                return curlref_create(&c, &error, error.count)
                            }
                        }
                    }
                }
            }
        }
        guard let made else {
            storage.deallocate()
            throw Failure(description: "curlref_create: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = made
        body = storage
        maxFailed = options.maxFailed
    }

    /// Sends `pushes` pushes; throws unless all but at most `Options.maxFailed` were answered 200.
    @discardableResult
    public func run(pushes: Int) throws -> curlref_result {
        var result = curlref_result()
        guard curlref_run(handle, pushes, &result) == 0 else { throw Failure(description: "curlref_run: a multi-level error") }
        guard result.delivered + maxFailed >= pushes else {
            throw Failure(description: "reference loop: \(result.delivered) of \(pushes) delivered, \(result.rejected) rejected (first status \(result.first_status)), \(result.failed) failed (first CURLcode \(result.first_curl_error))")
        }
        return result
    }

    /// The last run's service time at quantile `q` (0...1), in microseconds (``LogHistogram``'s buckets).
    public func serviceTime(quantile q: Double) -> UInt64 { curlref_quantile(handle, q) }

    deinit {
        curlref_destroy(handle)
        body.deallocate()
    }
}

private func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}
