// The per-push work outside libcurl: template fill, provider token, outcome recording, reason parse, and the
// recipe path's event and fill (RecipeBenchmarks.swift).
//
// Names have no spaces or slashes: package-benchmark writes threshold files with those replaced but looks
// them up by the raw name. Each benchmark loops 1 000 times per iteration (scalingFactor .kilo), so the printed (*) values are per
// call. Only mallocCountTotal gates (`thresholds check`, p90, Thresholds/): a count does not move with the
// machine's load, times on a shared 2-core machine do, so they are reported and never gate.
import APNsCore
import Benchmark
import Reporting

/// The leave-requests Live Activity template (profiles/templates/leave-requests.json): nine slots.
let liveActivityTemplate = """
    {
      "aps": {
        "timestamp": "{{#timestamp}}",
        "attributes-type": "LeaveRequestAttributes",
        "attributes": {
          "id": "{{activity_id}}",
          "studentName": "{{student_name}}",
          "studentId": "{{#student_id}}",
          "requestTime": "{{request_time}}",
          "reason": "{{reason}}"
        },
        "content-state": {
          "status": "{{status}}",
          "responseTime": "{{response_time}}",
          "respondedBy": "{{responded_by}}"
        },
        "event": "{{event}}",
        "alert": {
          "title": "Leave Request Update",
          "body": "Your leave request status has been updated."
        }
      },
      "activity-id": "{{activity_id}}"
    }
    """

let benchmarks: @Sendable () -> Void = {
    // Malloc counts must stay within 50 per 1 000 calls of the committed p90 (one allocation per call would
    // show as +1 000; an exact match was brittle: amortised buffer growth moves the count by a few);
    // time metrics are reported and never checked.
    let mallocsGate: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p90: 50]),
        .wallClock: .none,
        .cpuTotal: .none,
        .throughput: .none,
    ]
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        // A malloc count is the same in every iteration: a second of them is plenty for its p90.
        maxDuration: .seconds(1),
        maxIterations: 1_000,
        thresholds: mallocsGate
    )

    Benchmark("PayloadTemplateRender_LiveActivity9Slots") { benchmark in
        let template = try! PayloadTemplate(json: liveActivityTemplate, source: "leave-requests")
        func slot(_ name: String) -> Int { template.slotIndex(named: name)! }
        var values = [PayloadTemplate.Value](repeating: .null, count: template.slotNames.count)
        values[slot("activity_id")] = .string("E0D6A1B2-7C3D-4E5F-8A9B-0C1D2E3F4A5B")
        values[slot("student_name")] = .string("John \"Johnny\" Doe")  // one escape
        values[slot("student_id")] = .integer(1427)
        values[slot("request_time")] = .string("2025-04-16T10:00:00Z")
        values[slot("reason")] = .string("Doctor appointment")
        values[slot("status")] = .string("approved")
        values[slot("response_time")] = .string("2025-04-16T10:04:52Z")
        values[slot("responded_by")] = .string("Jane Smith")
        values[slot("event")] = .string("update")
        let timestamp = slot("timestamp")
        var buffer: [UInt8] = []
        buffer.reserveCapacity(4096)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            values[timestamp] = .integer(1_744_797_892 + i)
            template.render(into: &buffer, values: values)
            blackHole(buffer.count)
        }
    }

    Benchmark("ProviderTokenCacheBearer_cached") { benchmark in
        let cache = try! ProviderTokenCache(key: SigningKey.generate())
        _ = cache.bearer()  // signs once, outside the measurement
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(cache.bearer())
        }
    }

    Benchmark("RunRecorderRecord_delivered") { benchmark in
        let recorder = RunRecorder(expectedSeconds: 60)
        let base = MonotonicTime.now()
        recorder.start(atNanos: base)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            // Sends spread over 10 s, answered 100-1 100 µs later: several histogram buckets.
            let sent = base + UInt64(i) * 10_000_000
            recorder.record(.delivered, priority: .immediate, intended: sent, sent: sent, completed: sent + 100_000 + UInt64(i) * 1_000)
        }
        benchmark.stopMeasurement()
        blackHole(recorder.delivered)
    }

    Benchmark("ReasonParse_BadDeviceToken") { benchmark in
        let body = Array(#"{"reason":"BadDeviceToken"}"#.utf8)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(Reason.parse(body: body))
        }
    }

    recipeBenchmarks()
}
