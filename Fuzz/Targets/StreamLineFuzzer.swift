// libFuzzer target `stream-line`: lines of a recorded stream (NDJSON), as `EventStreamReader` and
// `WorkloadDriver` see them. The input is one or more lines (split at `\n`, a `\r` before it dropped and
// blank lines skipped, as `LineReader` does).
//
// Each line must end as a record or as a bad line, never as a crash. On top of that it checks what the
// driver's accounting relies on:
// - a record that a shipped recipe's rules accept and that plans N pushes hands out exactly N (`nextPlanned`);
// - a record the rules refuse (a throw) plans nothing;
// - the public `FlatJSON.parse` gives the same answer for a slice that does not start at index 0.
// Every typed accessor of `FlatJSONObject` is called on every field of a record, whatever its type.
//
// Built by scripts/fuzz.sh with `swiftc -sanitize=fuzzer,address`; run from the repository's root
// (the shipped recipes are read from profiles/recipes/, their templates beside them).
import APNsCore
@testable import Replay

#if canImport(Glibc)
import Glibc
#endif

/// The shipped recipe of each workload, loaded once.
let recipes: [String: Recipe] = {
    var loaded: [String: Recipe] = [:]
    for name in ["leave-requests", "order-changes", "cdbl-leave", "ksr-cranes", "everday-approvals"] {
        let path = "profiles/recipes/\(name).yaml"
        do { loaded[name] = try RecipeLoader.load(path: path) } catch {
            fatalError("stream-line fuzzer: \(error); run it from the repository's root")
        }
    }
    return loaded
}()

/// The workloads whose rules read events of this kind; any other kind goes to one workload, which
/// must refuse it as `unknownKind`.
func workloads(forKind kind: String) -> [String] {
    switch kind {
    case "leave.created", "leave.token", "leave.status": return ["leave-requests"]
    case "device.register", "order.change", "activity.end": return ["order-changes"]
    case "notify": return ["cdbl-leave", "ksr-cranes"]
    case "parent.device", "parent.removed", "account.registered": return ["everday-approvals"]
    default: return ["leave-requests"]
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStreamLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    var latest: Int64?
    // Fresh rules for every input (created when a record first needs them), so a crash reproduces from its input alone.
    var rules: [String: WorkloadRules] = [:]
    var number = 0
    for var raw in input.split(separator: 0x0A, omittingEmptySubsequences: false) {
        number += 1
        if raw.last == 0x0D { raw = raw.dropLast() }
        if raw.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C }) { continue }
        let bytes = Array(raw)
        checkOffsetSlice(bytes, line: number)
        checkOtherShapes(bytes, line: number)
        switch EventStreamReader.check(LineReader.Line(number: number, bytes: bytes[...]), latest: latest, tolerance: 0) {
        case let .bad(error):
            guard error.line == number, StreamLineError.Cause.allKeys.contains(error.key) else {
                fatalError("bad line reported as \(error) for line \(number)")
            }
            _ = error.description
        case let .record(line, at, kind, fields):
            guard line == number, !kind.isEmpty else { fatalError("record at line \(line) for line \(number), kind '\(kind)'") }
            latest = max(latest ?? at, at)
            readEveryField(fields)
            for name in workloads(forKind: kind) {
                let workload = rules[name] ?? makeRules(name)
                rules[name] = workload
                apply(StreamRecord(line: line, at: at, kind: kind, fields: fields), to: workload, name: name)
            }
        }
    }
    return 0
}

func makeRules(_ name: String) -> WorkloadRules {
    RecipeRules(recipes[name]!, priority: .immediate)
}

/// Applies one record as `WorkloadDriver.next(into:)` does and checks the plan's size.
func apply(_ record: StreamRecord, to workload: WorkloadRules, name: String) {
    var push = OutgoingPush(bodyCapacity: 256)
    let planned: Int
    do {
        planned = try workload.apply(record)
    } catch {
        _ = "\(error)"
        if workload.nextPlanned(into: &push) != nil {
            fatalError("\(name): line \(record.line) was refused (\(error)) but planned a push")
        }
        return
    }
    var handedOut = 0
    while workload.nextPlanned(into: &push) != nil {
        handedOut += 1
        if handedOut > planned { break }
    }
    guard planned >= 0, handedOut == planned else {
        fatalError("\(name): line \(record.line) planned \(planned) pushes and handed out \(handedOut)")
    }
}

/// Record shapes other than the standard one: each line must end as a record or a bad line, and a
/// shape without a kind field gives the kind "".
let otherShapes = [
    RecordShape(timeField: "at", timeFormat: .unixSeconds, kindField: "kind"),
    RecordShape(timeField: "at", timeFormat: .unixMillis, kindField: nil),
    RecordShape(timeField: "ts", timeFormat: .iso8601, kindField: nil),
]

func checkOtherShapes(_ bytes: [UInt8], line: Int) {
    for shape in otherShapes {
        switch EventStreamReader.check(LineReader.Line(number: line, bytes: bytes[...]), latest: nil, tolerance: 0, shape: shape) {
        case let .bad(error):
            guard error.line == line, StreamLineError.Cause.allKeys.contains(error.key) else {
                fatalError("bad line reported as \(error) for line \(line) with \(shape)")
            }
            _ = error.description
        case let .record(_, at, kind, _):
            guard EpochTime.millisRange.contains(at) || shape.timeFormat == .iso8601,
                  kind.isEmpty == (shape.kindField == nil) else {
                fatalError("record with time \(at), kind '\(kind)' for \(shape)")
            }
        }
    }
}

/// Calls every typed accessor on every field: each must return a value or throw, whatever the JSON type.
/// Nested objects are read the same way, down to `depth` levels.
func readEveryField(_ fields: FlatJSONObject, depth: Int = 0) {
    for key in fields.keys {
        if depth < 4, let inner = try? fields.nested(key) {
            guard inner.line == fields.line else { fatalError("nested object '\(key)' lost its line number") }
            readEveryField(inner, depth: depth + 1)
        }
        guard fields.has(key), fields.valueType(key) != nil else { fatalError("key '\(key)' listed but not found") }
        _ = try? fields.string(key)
        _ = try? fields.optionalString(key)
        _ = try? fields.int(key)
        _ = try? fields.optionalInt(key)
        _ = try? fields.double(key)
        _ = try? fields.optionalDouble(key)
        _ = try? fields.bool(key)
        _ = try? fields.optionalBool(key)
        _ = try? fields.intArray(key)
        _ = try? fields.optionalIntArray(key)
        _ = try? fields.stringArray(key)
        _ = try? fields.optionalStringArray(key)
    }
}

/// `FlatJSON.parse` is public and takes any slice: one that starts at index 1 must parse the same.
func checkOffsetSlice(_ bytes: [UInt8], line: Int) {
    let shifted = ([0x20] + bytes)[1...]
    let direct = Result { try FlatJSON.parse(bytes[...], line: line) }
    let offset = Result { try FlatJSON.parse(shifted, line: line) }
    switch (direct, offset) {
    case let (.success(a), .success(b)):
        guard a.keys == b.keys else { fatalError("keys differ for a slice at index 1: \(a.keys) vs \(b.keys)") }
        for key in a.keys {
            guard a.valueType(key) == b.valueType(key),
                  (try? a.string(key)) == (try? b.string(key)),
                  (try? a.double(key)) == (try? b.double(key)),
                  (try? a.bool(key)) == (try? b.bool(key)),
                  (try? a.intArray(key)) == (try? b.intArray(key)),
                  (try? a.stringArray(key)) == (try? b.stringArray(key))
            else { fatalError("field '\(key)' reads differently from a slice at index 1") }
        }
    case let (.failure(a), .failure(b)):
        guard "\(a)" == "\(b)" else { fatalError("errors differ for a slice at index 1: \(a) vs \(b)") }
    default:
        fatalError("a slice at index 1 parses differently: \(direct) vs \(offset)")
    }
}

/// The whole file, or nil.
func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n <= 0 { break }
        bytes += chunk[0 ..< n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
