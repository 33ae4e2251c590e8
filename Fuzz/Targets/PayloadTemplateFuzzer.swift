// libFuzzer target `payload-template`: the text of a payload template, compiled by
// `PayloadTemplate(json:source:)` and rendered.
//
// Each input must compile or throw a `PayloadTemplate.CompileError`, never crash. A template that
// passes the check a recipe's push makes when it is loaded (`validate(sample:source:)` with the sample
// values the recipe loader uses) must render a JSON object for any values: strings full of quotes, backslashes,
// control characters and non-ASCII text, extreme integers. That is what makes the check at start
// enough for every push of a run.
//
// Built by scripts/fuzz.sh with `swiftc -sanitize=fuzzer,address`.
import APNsCore
import Foundation

/// Hard strings for slots: everything JSON escaping must get right.
let awkwardStrings = [
    "", "x", "\"", "\\", "\"}]", "\\u0000", "\u{0}\u{1}\u{1F}\u{7F}", "line\nbreak\ttab\r", "é ü 東京 🚀",
    "\u{2028}\u{2029}", "{{slot}}", "</script>", String(repeating: "\\\"", count: 40),
]
let awkwardIntegers = [0, 1, -1, Int.max, Int.min, 1_700_000_000_000]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloadTemplate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let template: PayloadTemplate
    do {
        template = try PayloadTemplate(json: text, source: "fuzz")
    } catch let error as PayloadTemplate.CompileError {
        _ = error.description
        return 0
    } catch {
        fatalError("PayloadTemplate(json:) threw \(type(of: error)), not a CompileError: \(error)")
    }
    guard template.slotNames.count == template.slotKinds.count,
          Set(template.slotNames).count == template.slotNames.count else {
        fatalError("slot names \(template.slotNames) and kinds \(template.slotKinds) disagree")
    }
    let sample: [PayloadTemplate.Value] = template.slotKinds.map { $0 == .integer ? .integer(1) : .string("x") }
    guard (try? template.validate(sample: sample, source: "fuzz")) != nil else {
        // Not usable by a workload; rendering must still not crash.
        _ = template.render(Array(repeating: .null, count: template.slotNames.count))
        return 0
    }
    for round in 0 ..< awkwardStrings.count {
        let values: [PayloadTemplate.Value] = template.slotKinds.enumerated().map { index, kind in
            kind == .integer
                ? .integer(awkwardIntegers[(round + index) % awkwardIntegers.count])
                : .string(awkwardStrings[(round + index) % awkwardStrings.count])
        }
        let bytes = template.render(values)
        guard (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] else {
            fatalError("a validated template rendered a payload that is not a JSON object: \(String(decoding: bytes, as: UTF8.self))")
        }
    }
    return 0
}
