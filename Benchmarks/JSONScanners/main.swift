// The two hand-written JSON scanners against Foundation and jansson (a maintained C library), each on
// the input it reads in a run: recording lines for FlatJSON (Replay's stream reader), push payloads for
// JSONTape (APNsCore: the device contract's check, and the simulator's validation through PayloadShape,
// which checks RFC 8259's grammar on the tape and reads `aps`). Built with `swiftc -O` together with the
// scanners' own source files by scripts/bench-json.sh, which also writes
// the inputs; prints one Markdown table row per scanner and input: the best of the passes.
// simdjson_lines.cpp measures simdjson on the same inputs.
//
//   bench-json LINES.ndjson PAYLOADS.ndjson [PASSES]
import APNsCore
import CJansson
import Foundation

@_optimize(none) @inline(never) func blackHole<T>(_ value: T) {}

/// The non-empty lines of `path`, as bytes.
func lines(_ path: String) -> [[UInt8]] {
    guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
    return data.split(separator: UInt8(ascii: "\n")).filter { !$0.isEmpty }.map { Array($0) }
}

/// A JSON value as JSONDecoder decodes one it knows nothing about.
enum AnyJSON: Decodable {
    case null, bool(Bool), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])
    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([AnyJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: AnyJSON].self)) }
    }
}

struct Row {
    let scanner: String
    let input: String
    let nsPerLine: Double
    let mbPerSecond: Double
    let failures: Int
}

/// Runs `parse` over every line (`lines`, as the scanner takes them) `passes` times and keeps the fastest
/// pass; `parse` returns false for a line it refuses (every input here is valid JSON, so a refusal is a
/// fault of the harness).
func measure<Line>(_ scanner: String, _ input: String, _ lines: [Line], bytes: Int, passes: Int, _ parse: (Line) -> Bool) -> Row {
    var best = UInt64.max, failures = 0
    for pass in 0..<passes {
        var refused = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for line in lines where !parse(line) { refused += 1 }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        if pass == 0 { failures = refused }
        best = min(best, elapsed)
    }
    let ns = Double(best) / Double(lines.count)
    return Row(scanner: scanner, input: input, nsPerLine: ns, mbPerSecond: Double(bytes) / Double(best) * 1000, failures: failures)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fatalError("usage: bench-json LINES.ndjson PAYLOADS.ndjson [PASSES]") }
let recording = lines(arguments[1]), payloads = lines(arguments[2])
let passes = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20
let recordingData = recording.map { Data($0) }, payloadData = payloads.map { Data($0) }

func jansson(_ line: [UInt8]) -> Bool {
    var error = json_error_t()
    let value = line.withUnsafeBufferPointer { b in b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { json_loadb($0, b.count, 0, &error) } }
    guard let value else { return false }
    json_decref(value)
    return true
}

func foundation(_ data: Data) -> Bool { (try? JSONSerialization.jsonObject(with: data)).map { blackHole($0); return true } ?? false }
let decoder = JSONDecoder()
func decodable(_ data: Data) -> Bool { (try? decoder.decode(AnyJSON.self, from: data)).map { blackHole($0); return true } ?? false }

var rows: [Row] = []
let recordingBytes = recording.reduce(0) { $0 + $1.count }, payloadBytes = payloads.reduce(0) { $0 + $1.count }

// Recording lines.
rows.append(measure("FlatJSON (Replay)", "recording lines", recording, bytes: recordingBytes, passes: passes) { line in
    guard let object = try? FlatJSON.parse(line[...], line: 1) else { return false }
    blackHole(object)
    return true
})
rows.append(measure("JSONSerialization", "recording lines", recordingData, bytes: recordingBytes, passes: passes, foundation))
rows.append(measure("JSONDecoder (any JSON)", "recording lines", recordingData, bytes: recordingBytes, passes: passes, decodable))
rows.append(measure("jansson 2.14 (json_loadb)", "recording lines", recording, bytes: recordingBytes, passes: passes, jansson))

// Push payloads.
rows.append(measure("JSONTape (a tape each payload)", "push payloads", payloads, bytes: payloadBytes, passes: passes) { line in
    line.withUnsafeBufferPointer { b in
        guard case let .success(nodes) = JSONTape.scan(b) else { return false }
        blackHole(nodes)
        return true
    }
})
// The simulator's way: one tape kept and scanned into again.
var tape = JSONTape()
let watched = ["event", "timestamp", "content-state", "alert", "attributes-type", "attributes"].map { Array($0.utf8) }
rows.append(measure("PayloadShape on a kept tape, aps keys watched", "push payloads", payloads, bytes: payloadBytes, passes: passes) { line in
    line.withUnsafeBytes { b in
        let shape = PayloadShape(b, watching: watched, tape: &tape)
        blackHole(shape)
        return shape.isObject
    }
})
rows.append(measure("PayloadShape on a kept tape, aps keys not watched", "push payloads", payloads, bytes: payloadBytes, passes: passes) { line in
    line.withUnsafeBytes { b in
        let shape = PayloadShape(b, watching: nil, tape: &tape)
        blackHole(shape)
        return shape.isObject
    }
})
rows.append(measure("JSONSerialization", "push payloads", payloadData, bytes: payloadBytes, passes: passes, foundation))
rows.append(measure("JSONDecoder (any JSON)", "push payloads", payloadData, bytes: payloadBytes, passes: passes, decodable))
rows.append(measure("jansson 2.14 (json_loadb)", "push payloads", payloads, bytes: payloadBytes, passes: passes, jansson))

print("| input | scanner | ns per line | MB/s | refused |")
print("| --- | --- | ---: | ---: | ---: |")
for r in rows {
    print("| \(r.input) | \(r.scanner) | \(String(format: "%.0f", r.nsPerLine)) | \(String(format: "%.0f", r.mbPerSecond)) | \(r.failures) |")
}
print("\(recording.count) recording lines, \(payloads.count) payloads; the fastest of \(passes) passes")
