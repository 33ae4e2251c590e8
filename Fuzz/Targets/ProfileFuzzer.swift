// libFuzzer target `profile`: the text of a run profile (YAML), given to `ProfileLoader.parse(yaml:file:)`,
// which reads it through Yams into a `RunConfig` and validates it.
//
// Each input must end as a configuration or as a `ProfileError` (the file, the line and the message the
// CLI prints), never as a crash and never as another error type. A configuration it returns must pass
// its own validation again.
//
// Built by scripts/fuzz.sh with `swiftc -sanitize=fuzzer,address`. Yams and its C part (libyaml) come
// from the package's debug build, uninstrumented: coverage guides the fuzzer through our code only.
import APNsCore
import Replay

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let config = try ProfileLoader.parse(yaml: text, file: "profiles/fuzz.yaml")
        do { try config.validate() } catch { fatalError("a loaded profile fails its own validation: \(error)") }
    } catch let error as ProfileError {
        _ = error.description
    } catch {
        fatalError("ProfileLoader.parse threw \(type(of: error)), not a ProfileError: \(error)")
    }
    return 0
}
