// libFuzzer target `recipe`: the text of a recipe (YAML), given to `RecipeLoader.load(yaml:file:)` as if it
// were a file in profiles/recipes/ (so its templates, `../templates/…`, are the shipped ones).
//
// Each input must end as a recipe or as a `ProfileError` (the file, the line and the message the CLI
// prints), never as a crash and never as another error type. A recipe it returns is run over a few lines
// (each kind of event the shipped recipes know, and an API call), which must each plan or be refused as a
// bad line.
//
// Built by scripts/fuzz.sh with `swiftc -sanitize=fuzzer,address`.
import APNsCore
import Replay

private let lines: [String] = [
    #"{"at":"2025-01-01T00:00:00Z","kind":"device.register","device_id":"d1","push_token":"aaaa","store_ids":[1,2],"input_push_channel":1}"#,
    #"{"at":"2025-01-01T00:00:01Z","kind":"order.change","store_id":1,"totalOrders":1,"lateOrders":0,"totalItems":2,"event":"end"}"#,
    #"{"at":"2025-01-01T00:00:02Z","kind":"leave.created","request_id":1,"student_id":2,"student_name":"x","request_type":"y","token":"ab"}"#,
    #"{"at":"2025-01-01T00:00:03Z","kind":"leave.status","request_id":1,"status":"finished"}"#,
    #"{"at":"2025-01-01T00:00:04Z","kind":"notify","token":null,"type":"LEAVE_SUBMITTED","title":"t","body":"b"}"#,
    #"{"at":"2025-01-01T00:00:05Z","method":"PUT","path":"/api/leave-requests/1/status","body":{"status":"approved"}}"#,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecipe(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let recipe: Recipe
    do {
        recipe = try RecipeLoader.load(yaml: text, file: "profiles/recipes/fuzz.yaml")
    } catch let error as ProfileError {
        _ = error.description
        return 0
    } catch {
        fatalError("RecipeLoader.load threw \(type(of: error)), not a ProfileError: \(error)")
    }
    let rules = RecipeRules(recipe, priority: .immediate)
    var push = OutgoingPush()
    for (i, line) in lines.enumerated() {
        guard let fields = try? FlatJSON.parse(line, line: i + 1) else { fatalError("fixture line \(i + 1) is not JSON") }
        let kind = (try? fields.optionalString("kind")) ?? nil
        let record = StreamRecord(line: i + 1, at: 1_735_689_600_000 + Int64(i) * 1000, kind: kind ?? "", fields: fields)
        guard let planned = try? rules.apply(record) else { continue }
        for _ in 0 ..< planned {
            guard rules.nextPlanned(into: &push) != nil else { fatalError("planned \(planned) pushes and gave fewer") }
        }
        if rules.nextPlanned(into: &push) != nil { fatalError("gave more pushes than the \(planned) planned") }
    }
    return 0
}
