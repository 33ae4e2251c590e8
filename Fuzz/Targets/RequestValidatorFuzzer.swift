// libFuzzer target `request-validator`: one APNs request as the simulator's validator sees it (pseudo-headers,
// headers, body), given to `RequestValidator.evaluate` twice on one connection's auth state.
//
// Input format (text, so that the corpus reads like requests): header lines `name: value` (the name ends
// at the first ':' after the line's first byte, so `:path: /3/device/…` works), an empty line, then the
// body. Without an empty line everything is headers and the body is empty. The authorization value
// `bearer VALID` is replaced by a token the fuzzer signed at start with the key the simulator knows, so
// mutations reach the payload checks (a fuzzer cannot forge ES256 signatures); any other value is
// parsed and verified as sent.
//
// Each input must end as a verdict, never as a crash. The same request evaluated again on the same
// connection gets the same verdict (the token fast path and the topic memo change nothing), except that
// the per-token rate limit (1 push a minute here) may refuse the second.
//
// Built by scripts/fuzz.sh with `swiftc -sanitize=fuzzer,address`. NIO and the CLibcrypto shim come from the
// package's debug build, uninstrumented: coverage guides the fuzzer through our code only.
import APNsCore
@testable import APNsSimulator
import NIOCore
import NIOHPACK

/// The fixed time of every evaluation (the fuzzer's token is issued then).
let now: Double = 1_700_000_000
let key = SigningKey.generate(keyID: "FUZZKEY001", teamID: "FUZZTEAM01")
let validToken = "bearer " + ProviderTokenCache.makeJWT(key: key, issuedAt: Int(now))

let configuration: SimulatorConfiguration = {
    var c = SimulatorConfiguration()
    c.clock = WallClock { now }
    c.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
    c.topicsByTeam = [key.teamID: ["com.example.app", "com.example.leave"]]
    c.deviceRegistry.kill(token: String(repeating: "de", count: 32), .init(reason: .unregistered, timestampMilliseconds: 1_600_000_000_000))
    c.deviceRegistry.rateLimit = .init(pushes: 1, windowSeconds: 60)
    return c
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestValidator(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (headers, body) = decodeRequest(UnsafeBufferPointer(start: data, count: size))
    // A fresh validator per input: its rate and budget windows would otherwise carry state from input to input.
    let validator = RequestValidator(configuration: configuration)
    let request = ReceivedRequest(headers: HPACKHeaders(headers), body: ByteBuffer(bytes: body))
    _ = RequestHeaderFields(request.headers).contentLength
    var auth = ConnectionAuthState()
    let first = validator.evaluate(request, auth: &auth)
    let second = validator.evaluate(request, auth: &auth)
    if second.verdict != first.verdict, !(first.verdict == .accept && second.verdict == .reject(.tooManyRequests)) {
        fatalError("the same request on the same connection: \(first.verdict), then \(second.verdict)")
    }
    return 0
}

/// Header lines up to the first empty line, then the body.
func decodeRequest(_ input: UnsafeBufferPointer<UInt8>) -> (headers: [(String, String)], body: [UInt8]) {
    var headers: [(String, String)] = []
    var start = 0
    while start < input.count {
        let end = input[start...].firstIndex(of: 0x0A) ?? input.count
        if end == start { return (headers, Array(input[(end + 1)...])) }
        let line = input[start ..< end]
        let colon = line.dropFirst().firstIndex(of: UInt8(ascii: ":")) ?? end
        let name = String(decoding: input[start ..< colon], as: UTF8.self)
        var value = colon < end ? input[(colon + 1) ..< end] : input[end ..< end]
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        let text = String(decoding: value, as: UTF8.self)
        headers.append((name, name == "authorization" && text == "bearer VALID" ? validToken : text))
        start = end + 1
    }
    return (headers, [])
}
