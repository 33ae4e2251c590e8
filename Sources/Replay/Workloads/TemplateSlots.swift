import APNsCore

/// A workload's payload template bound to the workload's fields: every slot in the template must name a
/// field (checked at start, with the file and the known fields named), and a filled template must be
/// JSON. Per push the workload sets the fields it has and renders into the engine's reused buffer.
struct TemplateSlots<Field: RawRepresentable & CaseIterable & Hashable> where Field.RawValue == String {
    let template: PayloadTemplate
    /// The template's slot index for each field (nil: the template does not use it).
    private let slotOf: [Field: Int]
    /// Reused per push.
    private var values: [PayloadTemplate.Value]

    init(_ template: PayloadTemplate, source: String, workload: String) throws {
        var slotOf: [Field: Int] = [:]
        for (i, name) in template.slotNames.enumerated() {
            guard let field = Field(rawValue: name) else {
                throw WorkloadError.unknownSlot(template: source, slot: name, workload: workload,
                                                fields: Field.allCases.map(\.rawValue))
            }
            slotOf[field] = i
        }
        try template.validate(sample: template.slotKinds.map { $0 == .integer ? .integer(1) : .string("x") }, source: source)
        self.template = template
        self.slotOf = slotOf
        self.values = Array(repeating: .null, count: template.slotNames.count)
    }

    /// Whether the template uses `field` (to skip work for values nobody reads).
    func uses(_ field: Field) -> Bool { slotOf[field] != nil }

    /// Sets a field's value for the next render (ignored when the template does not use the field).
    @inline(__always)
    mutating func set(_ field: Field, _ value: PayloadTemplate.Value) {
        if let i = slotOf[field] { values[i] = value }
    }

    /// Sets a field from an optional string (nil writes `null`).
    @inline(__always)
    mutating func set(_ field: Field, _ text: String?) {
        set(field, text.map { .string($0) } ?? .null)
    }

    /// Writes the payload into `buffer`, keeping its capacity.
    func render(into buffer: inout [UInt8]) {
        template.render(into: &buffer, values: values)
    }
}
