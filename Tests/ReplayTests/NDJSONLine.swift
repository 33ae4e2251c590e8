import APNsCore

/// Builds one NDJSON line field by field, escaping strings, in key order as added.
struct NDJSONLine {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    init() {}

    private mutating func key(_ k: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        JSONEscaping.append(k, to: &bytes)
        bytes.append(contentsOf: Array("\":".utf8))
    }

    mutating func string(_ k: String, _ v: String?) {
        key(k)
        guard let v else { bytes.append(contentsOf: Array("null".utf8)); return }
        bytes.append(UInt8(ascii: "\""))
        JSONEscaping.append(v, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ k: String, _ v: Int?) {
        key(k)
        guard let v else { bytes.append(contentsOf: Array("null".utf8)); return }
        JSONEscaping.appendDecimal(v, to: &bytes)
    }

    mutating func ints(_ k: String, _ v: [Int]) {
        key(k)
        bytes.append(UInt8(ascii: "["))
        for (i, n) in v.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONEscaping.appendDecimal(n, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func bool(_ k: String, _ v: Bool) {
        key(k)
        bytes.append(contentsOf: Array((v ? "true" : "false").utf8))
    }

    /// A nested object, its fields added by `build` in order.
    mutating func object(_ k: String, _ build: (inout NDJSONLine) -> Void) {
        key(k)
        var inner = NDJSONLine()
        build(&inner)
        bytes.append(contentsOf: inner.bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// The finished line, with its newline.
    var line: [UInt8] { bytes + [UInt8(ascii: "}"), UInt8(ascii: "\n")] }
}
