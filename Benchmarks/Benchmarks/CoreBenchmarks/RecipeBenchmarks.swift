// The recipe path's per-push work: an event applied to `RecipeRules` and its pushes filled (recipient,
// headers, payload rendered into the push's reused buffer), as the driver takes them.
import APNsCore
import Foundation
import Benchmark
import Replay

/// The repository's profiles/recipes/NAME.yaml: found from this file's path (Benchmarks/Benchmarks/CoreBenchmarks/),
/// else from the working directory (the Benchmarks package, where `swift package benchmark` runs).
func recipePath(_ name: String) -> String {
    let file = "profiles/recipes/\(name).yaml"
    let here = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(4).joined(separator: "/")
    for candidate in ["\(here)/\(file)", "../\(file)", file] where FileManager.default.fileExists(atPath: candidate) {
        return candidate
    }
    fatalError("cannot find \(file) from \(#filePath) or the working directory")
}

func record(_ text: String, line: Int, kind: String, at: Int64) -> StreamRecord {
    StreamRecord(line: line, at: at, kind: kind, fields: try! FlatJSON.parse(text, line: line))
}

/// A 64-hex-digit device token, distinct for each `i`.
func hexToken(_ i: Int) -> String {
    let hex = String(i, radix: 16)
    return String(repeating: "a", count: 64 - hex.count) + hex
}

func recipeBenchmarks() {
    // order-changes: 1 000 devices follow store 1, and one order change there plans a push to each. The
    // measured iteration applies the change and fills its 1 000 pushes into one reused push (per push: the
    // Live Activity template's slots from the event and the recipient, remember, aps.timestamp).
    Benchmark("RecipeFill_OrderChangesFanOut") { benchmark in
        orderChangesFanOut(benchmark, RecipeRules(try! RecipeLoader.load(path: recipePath("order-changes")), priority: .immediate))
    }

    // The same fan-out with the collapse id written from a format over the event's fields and the expiration
    // read from one: per event into the rule's reused buffer, per push copied into the push's (no allocation).
    Benchmark("RecipeFill_OrderChangesFanOutHeaderFields") { benchmark in
        let path = recipePath("order-changes")
        let yaml = try! String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "      to: {group: stores, key: store_id}\n",
            with: "      to: {group: stores, key: store_id}\n      collapse_id: \"store-{{store_id}}-orders-{{totalOrders}}\"\n      expiration_seconds: totalItems\n")
        precondition(yaml.contains("collapse_id"))
        orderChangesFanOut(benchmark, RecipeRules(try! RecipeLoader.load(yaml: yaml, file: path), priority: .immediate))
    }

    // The same fan-out planned by the recipe written with expressions
    // (profiles/examples/recipes/order-changes-expressions.yaml): a `when:` and two slots computed once per event,
    // and a `where:` tested on each of the 1 000 members.
    Benchmark("RecipeFill_OrderChangesFanOutExpressions") { benchmark in
        let path = recipePath("order-changes").replacingOccurrences(of: "profiles/recipes/order-changes.yaml",
                                                                    with: "profiles/examples/recipes/order-changes-expressions.yaml")
        orderChangesFanOut(benchmark, RecipeRules(try! RecipeLoader.load(path: path), priority: .immediate))
    }

    // cdbl-leave: each line is one alert to the token it names. The measured call applies the line, which reads
    // its fields (the strings longer than 15 bytes are decoded into allocated strings, as every line's are: here the
    // token, title, body, target_id and thread_id), and fills its push (created_at, text: one string).
    Benchmark("RecipeFill_CdblNotifySingle") { benchmark in
        let rules = RecipeRules(try! RecipeLoader.load(path: recipePath("cdbl-leave")), priority: .immediate)
        let notify = record(#"{"at":"2025-02-02T02:01:26.926Z","kind":"notify","token":"\#(hexToken(1))","type":"LEAVE_SUBMITTED","title":"New Leave Request","body":"Mahmudul \"Rony\" Haque requested 1 day(s) of medical leave (3 Feb): Family event","category":"LEAVE_REVIEW","priority":5,"target_id":"853f91c7-a819-48ac-c02a-c76fa9170cbe","thread_id":"leave-853f91c7-a819-48ac-c02a-c76fa9170cbe","badge":3}"#,
                            line: 1, kind: "notify", at: 1_738_461_686_926)
        var push = OutgoingPush()
        precondition(try! rules.apply(notify) == 1 && rules.nextPlanned(into: &push) == .push)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            // Each call a later time, as a stream's lines have: the payload's created_at is written each time.
            _ = try! rules.apply(StreamRecord(line: 1, at: notify.at + 1 + Int64(i), kind: notify.kind, fields: notify.fields))
            blackHole(rules.nextPlanned(into: &push))
        }
    }
}

/// One order change at store 1, which `benchmark.scaledIterations.count` devices follow, applied and its pushes
/// filled into one reused push: the measured span is the change's planning and every push's fill.
private func orderChangesFanOut(_ benchmark: Benchmark, _ rules: RecipeRules) {
    let devices = benchmark.scaledIterations.count
    let start: Int64 = 1_740_441_600_000
    for i in 0..<devices {
        let line = #"{"at":"2025-02-25T00:00:00.000Z","kind":"device.register","device_id":"device-\#(i)","push_token":"\#(hexToken(i))","store_ids":[1]}"#
        precondition(try! rules.apply(record(line, line: i + 1, kind: "device.register", at: start + Int64(i))) == 0)
    }
    let change = record(#"{"at":"2025-02-25T01:00:00.000Z","kind":"order.change","store_id":1,"totalOrders":12,"lateOrders":3,"totalItems":48,"priority":10}"#,
                        line: devices + 1, kind: "order.change", at: start + 3_600_000)
    var push = OutgoingPush()
    // One change outside the measurement: each token's first aps.timestamp grows their table once.
    precondition(try! rules.apply(change) == devices)
    while let result = rules.nextPlanned(into: &push) { precondition(result == .push) }
    benchmark.startMeasurement()
    let planned = try! rules.apply(change)
    var pushed = 0
    for _ in benchmark.scaledIterations {
        if rules.nextPlanned(into: &push) == .push { pushed += 1 }
        blackHole(push.body.count)
    }
    benchmark.stopMeasurement()
    precondition(planned == devices && pushed == devices && rules.nextPlanned(into: &push) == nil)
}
