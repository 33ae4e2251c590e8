// engine-vs-reference: the engine against the bare libcurl loop (CurlReference), in one process, against one
// simulator in another process, with the same connections and streams.
//
// Rounds alternate the modes (the order rotates each round) so that background load on a noisy machine hits
// them all alike; each run is measured for pushes/s (wall clock) and CPU µs per push (getrusage RUSAGE_SELF,
// user + system, over the run). Pin this process to one core and the server to the other:
//
//   taskset -c 0 apnsbench simulate --fast --port 0 --threads 1       # prints url: and ca:
//   taskset -c 1 .build/release/engine-vs-reference --url URL --ca CA.pem
//
// With `--latency 40,200` the simulator is the validating one with a lognormal answer time (median 40 ms,
// p99 200 ms), as APNs: thousands of pushes in flight, the setting where waiting costs show.
//
// Modes: `poll` (curl_multi_perform + curl_multi_poll), `epoll` (curl_multi_socket_action with epoll),
// `engine` (CurlEngine, its default drive; `engine:drive=socket-action` or `engine:drive=poll` picks one),
// each optionally with knobs: `poll:buf=65536:upbuf=16384` sets
// CURLOPT_BUFFERSIZE and CURLOPT_UPLOAD_BUFFERSIZE on the reference loop; `poll:waitfirst=1` waits in
// curl_multi_poll before refilling the window, `seturl=1` sets CURLOPT_URL per push (both as the engine does).
import APNsCore
import APNsEngine
import BenchSupport
import CurlReference
import TestSupport
import Foundation

struct Mode {
    enum Kind { case reference(ReferenceLoop.Options), engine(CurlDrive) }
    let name: String
    let kind: Kind
    /// The mode this one is a variant of (for before/after ratios): `poll` for `poll:buf=…` and for `epoll`.
    let base: String?

    init(_ spec: String, connections: Int, streams: Int) throws {
        let parts = spec.split(separator: ":").map(String.init)
        name = spec
        switch parts[0] {
        case "engine":
            var drive = CurlDrive.fromEnvironment
            for knob in parts.dropFirst() {
                let kv = knob.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2, kv[0] == "drive", let d = CurlDrive(rawValue: kv[1]) else {
                    throw Usage("bad engine knob \(knob) in \(spec) (drive=poll|socket-action)")
                }
                drive = d
            }
            kind = .engine(drive)
            base = parts.count > 1 ? "engine" : nil
        case "poll", "epoll":
            var o = ReferenceLoop.Options()
            o.drive = parts[0] == "poll" ? .poll : .epoll
            o.connections = connections
            o.streams = streams
            o.pushTimeoutMillis = pushTimeoutMillis
            o.maxFailed = maxFailed
            for knob in parts.dropFirst() {
                let kv = knob.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2, let v = Int(kv[1]) else { throw Usage("bad knob \(knob) in \(spec)") }
                switch kv[0] {
                case "buf": o.bufferSize = v
                case "upbuf": o.uploadBufferSize = v
                case "waitfirst": o.pollWaitFirst = v != 0
                case "seturl": o.setURLPerPush = v != 0
                default: throw Usage("unknown knob \(kv[0]) in \(spec) (buf, upbuf, waitfirst, seturl)")
                }
            }
            kind = .reference(o)
            base = parts.count > 1 ? parts[0] : (parts[0] == "epoll" ? "poll" : nil)
        default:
            throw Usage("unknown mode \(parts[0]) (poll, epoll, engine)")
        }
    }
}

struct Usage: Error, CustomStringConvertible {
    let description: String
    init(_ s: String) { description = s }
}

struct Measurement {
    var pushesPerSecond: Double
    var cpuMicrosPerPush: Double
    var userShare: Double
    /// Returns from the wait per push.
    var wakeUpsPerPush: Double = 0
    /// Service time (sent → answered) percentiles, µs.
    var p50Micros: UInt64 = 0
    var p99Micros: UInt64 = 0
}

// MARK: Arguments

var url: String?
var caPath: String?
var connections = 1
var streams = 100
var pushes = 100_000
var warmup = 10_000
var rounds = 5
var modeSpecs = ["poll", "epoll", "engine"]
var h2c = false
var serverCPU: Int?
var writeBody: String?
var printBearer = false
var latency: (p50: Double, p99: Double)?
var keySpec: String?
var rate: Double?
var pushTimeoutMillis = 30_000
var maxFailed = 0

let help = """
    usage: engine-vs-reference [--url URL [--ca PEMFILE]] [--h2c] [--server-cpu N] [--connections 1] [--streams 100]
                               [--pushes 100000] [--warmup 10000] [--rounds 5] [--modes poll,epoll,engine]
                               [--write-body FILE] [--print-bearer] [--latency P50,P99] [--key PATH:KEYID:TEAMID] [--rate R]
                               [--push-timeout-ms 30000] [--max-failed 0]
    Without --url, starts `apnsbench simulate --fast` itself (see BenchSupport.SimulatorTarget), or with --latency the
    validating simulator with a lognormal answer time (ms); with --url of a validating simulator, --key is its demo key.
    --rate R paces the engine at R pushes a second (push n due at start + n/R); the bare loop is never paced.
    --push-timeout-ms and --max-failed: the bare loop's push timeout, and how many of a run's pushes may fail (time
    out, or not answered 200) with the run still counted; each run's failures are printed.
    Modes: poll | epoll | engine; engine takes :drive=poll|socket-action; poll and epoll take knobs :buf=N (CURLOPT_BUFFERSIZE) :upbuf=N (CURLOPT_UPLOAD_BUFFERSIZE)
    :seturl=1 (CURLOPT_URL per push, as the engine), and poll :waitfirst=1 (wait before refilling, as the engine).
    """
var args = CommandLine.arguments.dropFirst()
func value(_ name: String) -> String {
    guard let v = args.popFirst() else { FileHandle.standardError.write(Data("\(name) needs a value\n".utf8)); exit(64) }
    return v
}
func intValue(_ name: String) -> Int {
    let v = value(name)
    guard let n = Int(v), n > 0 else { FileHandle.standardError.write(Data("\(name) \(v): not a positive number\n".utf8)); exit(64) }
    return n
}
while let a = args.popFirst() {
    switch a {
    case "--url": url = value(a)
    case "--ca": caPath = value(a)
    case "--connections": connections = intValue(a)
    case "--streams": streams = intValue(a)
    case "--pushes": pushes = intValue(a)
    case "--warmup": warmup = Int(value(a)) ?? 0
    case "--rounds": rounds = intValue(a)
    case "--modes": modeSpecs = value(a).split(separator: ",").map(String.init)
    case "--h2c": h2c = true
    case "--server-cpu": serverCPU = Int(value(a))
    case "--write-body": writeBody = value(a)
    case "--print-bearer": printBearer = true
    case "--latency":
        let v = value(a).split(separator: ",").compactMap { Double($0) }
        guard v.count == 2, v[0] > 0, v[1] >= v[0] else { FileHandle.standardError.write(Data("--latency wants P50,P99 in ms\n".utf8)); exit(64) }
        latency = (v[0], v[1])
    case "--key": keySpec = value(a)
    case "--push-timeout-ms": pushTimeoutMillis = intValue(a)
    case "--max-failed": maxFailed = Int(value(a)) ?? 0
    case "--rate":
        guard let r = Double(value(a)), r > 0 else { FileHandle.standardError.write(Data("--rate wants pushes per second\n".utf8)); exit(64) }
        rate = r
    case "-h", "--help": print(help); exit(0)
    default: FileHandle.standardError.write(Data("unknown argument \(a)\n\(help)\n".utf8)); exit(64)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("engine-vs-reference: \(message)\n".utf8))
    exit(1)
}

// MARK: Setup

let modes: [Mode]
do { modes = try modeSpecs.map { try Mode($0, connections: connections, streams: streams) } } catch { fail("\(error)") }

let target: SimulatorTarget?
let baseURL: String
let caPEM: String?
if let url {
    target = nil
    baseURL = url
    do { caPEM = try caPath.map { try String(contentsOfFile: $0, encoding: .utf8) } } catch { fail("--ca: \(error)") }
} else if let latency {
    do { target = try SimulatorTarget.withLatency(p50: latency.p50, p99: latency.p99, serverCPU: serverCPU) } catch { fail("\(error)") }
    baseURL = target!.url
    caPEM = target!.caPEM
} else {
    do { target = try SimulatorTarget.fromEnvironment(h2c: h2c ? true : nil, serverCPU: serverCPU) } catch { fail("\(error)") }
    baseURL = target!.url
    caPEM = target!.caPEM
}
if baseURL.hasPrefix("https://") && caPEM == nil {
    fail("\(baseURL) is TLS: give --ca with the simulator's CA PEM (its `ca:` line)")
}

let tokens: ProviderTokenCache
do {
    var key = target?.demoKey
    if let keySpec {
        let p = keySpec.split(separator: ":").map(String.init)
        guard p.count == 3 else { fail("--key \(keySpec): want PATH:KEYID:TEAMID") }
        key = try SigningKey(p8Path: p[0], keyID: p[1], teamID: p[2])
    }
    tokens = try EngineSetup.tokens(key: key)
} catch { fail("\(error)") }
let bearer = tokens.bearer()
let body = BenchDefaults.body
if let writeBody {
    do { try Data(body).write(to: URL(fileURLWithPath: writeBody)) } catch { fail("--write-body: \(error)") }
}
if printBearer { print("authorization: \(bearer)") }

let libcurl = LibcurlInfo.loaded()
let preload = ProcessInfo.processInfo.environment["LD_PRELOAD"].map { " LD_PRELOAD=\($0)" } ?? ""
print("""
    engine-vs-reference: \(baseURL) (\(target?.origin ?? "given by --url")), libcurl \(libcurl.version) \(libcurl.ssl) nghttp2 \(libcurl.nghttp2)\(preload)
    \(connections) connection(s) x \(streams) streams, \(pushes) pushes per run, \(rounds) rounds, warmup \(warmup), body \(body.count) B, modes \(modeSpecs.joined(separator: " "))\(latency.map { ", server latency lognormal p50 \($0.p50) ms p99 \($0.p99) ms" } ?? "")
    """)

// MARK: Runs

let engineConfiguration = EngineSetup.configuration(url: baseURL, caPEM: caPEM, connections: connections, streams: streams)
/// With --rate, push n is due at start + n / rate (the engine paces; the bare loop does not).
var pacedStart: UInt64 = 0
let gapNanos = rate.map { UInt64(1e9 / $0) } ?? 0
let source = FakePushSource(count: 0) { n, push in
    push.deviceToken = BenchDefaults.deviceToken
    push.body.removeAll(keepingCapacity: true)
    push.body.append(contentsOf: body)
    push.priority = .immediate
    if gapNanos > 0 { push.intendedNanos = pacedStart + UInt64(n) * gapNanos }
}
let sink = LatencySink()

/// One run of `count` pushes in `mode`, with a new engine or reference loop (so connection setup is in
/// every run alike).
func run(_ mode: Mode, count: Int) throws -> Measurement {
    switch mode.kind {
    case let .engine(drive):
        let engine = try CurlEngine(configuration: engineConfiguration, tokens: tokens, drive: drive)
        source.reset(count: count)
        sink.reset()
        let cpu0 = CPUTime.now()
        let t0 = MonotonicTime.now()
        pacedStart = t0
        let counters = try engine.run(source: source, sink: sink)
        let t1 = MonotonicTime.now()
        let cpu1 = CPUTime.now()
        guard sink.delivered == count else {
            throw Usage("engine: \(sink.delivered) of \(count) delivered, first problem \(String(describing: sink.firstProblem))")
        }
        var m = measurement(count: count, nanos: t1 - t0, cpu0: cpu0, cpu1: cpu1)
        m.wakeUpsPerPush = Double(counters.wakeUps) / Double(count)
        m.p50Micros = sink.serviceTime.quantile(0.5)
        m.p99Micros = sink.serviceTime.quantile(0.99)
        return m
    case let .reference(options):
        let loop = try ReferenceLoop(url: baseURL, caPEM: caPEM, bearer: bearer, body: body, options: options)
        let cpu0 = CPUTime.now()
        let t0 = MonotonicTime.now()
        let r = try loop.run(pushes: count)
        let t1 = MonotonicTime.now()
        if r.delivered < count {
            FileHandle.standardError.write(Data("engine-vs-reference: \(count - r.delivered) of \(count) pushes failed (first CURLcode \(r.first_curl_error), first status \(r.first_status)); the run counts (--max-failed \(maxFailed))\n".utf8))
        }
        let cpu1 = CPUTime.now()
        var m = measurement(count: count, nanos: t1 - t0, cpu0: cpu0, cpu1: cpu1)
        m.wakeUpsPerPush = Double(r.wakeups) / Double(count)
        m.p50Micros = loop.serviceTime(quantile: 0.5)
        m.p99Micros = loop.serviceTime(quantile: 0.99)
        return m
    }
}

func measurement(count: Int, nanos: UInt64, cpu0: CPUTime.Sample, cpu1: CPUTime.Sample) -> Measurement {
    let cpu = Double(cpu1.totalMicros - cpu0.totalMicros)
    let user = Double(cpu1.userMicros - cpu0.userMicros)
    return Measurement(
        pushesPerSecond: Double(count) / (Double(nanos) / 1e9),
        cpuMicrosPerPush: cpu / Double(count),
        userShare: cpu > 0 ? user / cpu : 0)
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }

do {
    if warmup > 0 {
        for mode in modes { _ = try run(mode, count: warmup) }
    }
    var results: [String: [Measurement]] = [:]
    for round in 0..<rounds {
        var line = "round \(round + 1):"
        for i in 0..<modes.count {
            let mode = modes[(i + round) % modes.count]
            let m = try run(mode, count: pushes)
            results[mode.name, default: []].append(m)
            line += "  \(mode.name) \(f(m.pushesPerSecond, 0))/s \(f(m.cpuMicrosPerPush, 2))µs \(f(m.wakeUpsPerPush, 2))w"
        }
        print(line)
        fflush(stdout)
    }

    print("")
    print("mode                          pushes/s (median, min-max)      CPU µs/push (median, min-max)   pushes/CPU-s   user share  wake-ups/push  p50 ms  p99 ms")
    var medianRate: [String: Double] = [:]
    var medianCPU: [String: Double] = [:]
    var medianWake: [String: Double] = [:], medianP50: [String: Double] = [:], medianP99: [String: Double] = [:]
    for mode in modes {
        let ms = results[mode.name]!
        let rates = ms.map(\.pushesPerSecond), cpus = ms.map(\.cpuMicrosPerPush)
        medianRate[mode.name] = median(rates)
        medianCPU[mode.name] = median(cpus)
        medianWake[mode.name] = median(ms.map(\.wakeUpsPerPush))
        medianP50[mode.name] = median(ms.map { Double($0.p50Micros) / 1000 })
        medianP99[mode.name] = median(ms.map { Double($0.p99Micros) / 1000 })
        let cols = [
            mode.name.padding(toLength: 30, withPad: " ", startingAt: 0),
            "\(f(median(rates), 0)) (\(f(rates.min()!, 0))-\(f(rates.max()!, 0)))".padding(toLength: 32, withPad: " ", startingAt: 0),
            "\(f(median(cpus), 2)) (\(f(cpus.min()!, 2))-\(f(cpus.max()!, 2)))".padding(toLength: 32, withPad: " ", startingAt: 0),
            f(1e6 / median(cpus), 0).padding(toLength: 15, withPad: " ", startingAt: 0),
            f(median(ms.map(\.userShare)), 2).padding(toLength: 12, withPad: " ", startingAt: 0),
            f(medianWake[mode.name]!, 2).padding(toLength: 15, withPad: " ", startingAt: 0),
            f(medianP50[mode.name]!, 1).padding(toLength: 8, withPad: " ", startingAt: 0),
            f(medianP99[mode.name]!, 1),
        ]
        print(cols.joined())
    }
    print("")
    // Ratios: the engine against each reference; each variant against the mode it varies.
    for ref in modes where !ref.name.hasPrefix("engine") {
        guard medianRate["engine"] != nil else { break }
        print("engine/\(ref.name): pushes/s \(f(medianRate["engine"]! / medianRate[ref.name]!, 3)) (target >= 0.95), CPU/push \(f(medianCPU["engine"]! / medianCPU[ref.name]!, 3)) (target <= 1.1)")
    }
    for mode in modes {
        guard let base = mode.base, medianRate[base] != nil else { continue }
        print("\(mode.name) vs \(base): pushes/s x\(f(medianRate[mode.name]! / medianRate[base]!, 3)), CPU/push x\(f(medianCPU[mode.name]! / medianCPU[base]!, 3))")
    }
    // One line per mode for scripts.
    for mode in modes {
        print("RESULT mode=\(mode.name) pps=\(f(medianRate[mode.name]!, 0)) cpu_us=\(f(medianCPU[mode.name]!, 3)) wake=\(f(medianWake[mode.name]!, 3)) p50_ms=\(f(medianP50[mode.name]!, 1)) p99_ms=\(f(medianP99[mode.name]!, 1))")
    }
} catch {
    target?.stop()
    fail("\(error)")
}
target?.stop()
