import APNsCore

/// A workload's payload template bound to the workload's fields: every slot in the template must name a
/// field (checked at start, with the file and the known fields named), and a filled template must be
/// JSON. Per push the workload sets the fields it has and renders into the engine's reused buffer.
///
/// A workload's time fields (``setTime(_:millis:)``) are written as the template says: ISO 8601 text in a
/// string slot (`"{{response_time}}"`), or a number in an integer slot with a time format
/// (`"{{#response_time|reference_date}}"`, `|unix`, `|unix_ms`: ``PayloadTemplate/SlotFormat``). A time
/// format on a field that is not a time, or a time in an integer slot without one, is refused at start.
struct TemplateSlots<Field: RawRepresentable & CaseIterable & Hashable> where Field.RawValue == String {
    let template: PayloadTemplate
    /// The template's slot index for each field (nil: the template does not use it).
    private let slotOf: [Field: Int]
    /// The format of each used field's slot.
    private let formatOf: [Field: PayloadTemplate.SlotFormat?]
    /// Reused per push.
    private var values: [PayloadTemplate.Value]

    /// - Parameter timeFields: the fields that hold a time (set with ``setTime(_:millis:)``).
    init(_ template: PayloadTemplate, source: String, workload: String, timeFields: Set<Field> = []) throws {
        var slotOf: [Field: Int] = [:]
        for (i, name) in template.slotNames.enumerated() {
            guard let field = Field(rawValue: name) else {
                throw WorkloadError.unknownSlot(template: source, slot: name, workload: workload,
                                                fields: Field.allCases.map(\.rawValue))
            }
            let format = template.slotFormats[i]
            if let format, format.isTime, !timeFields.contains(field) {
                throw WorkloadError.slotFormat(template: source, slot: name, problem:
                    "has the time format '\(format.rawValue)', but \(name) is not a time (times of workload \(workload): "
                    + "\(Field.allCases.filter(timeFields.contains).map(\.rawValue).joined(separator: ", ")))")
            }
            if timeFields.contains(field), template.slotKinds[i] == .integer, format == nil {
                throw WorkloadError.slotFormat(template: source, slot: name, problem:
                    "is a time written as a number: say which, \"{{#\(name)|reference_date}}\" (seconds since 2001-01-01, what a default "
                    + "JSONDecoder reads), |unix (seconds since 1970) or |unix_ms, or write it as ISO 8601 text, \"{{\(name)}}\"")
            }
            slotOf[field] = i
        }
        try template.validate(sample: template.slotKinds.map { $0 == .integer ? .integer(1) : .string("x") }, source: source)
        self.template = template
        self.slotOf = slotOf
        self.formatOf = slotOf.mapValues { template.slotFormats[$0] }
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

    /// Sets a time field (epoch milliseconds) as its slot writes it: ISO 8601 text without a format, else
    /// the number its time format names.
    @inline(__always)
    mutating func setTime(_ field: Field, millis: Int64) {
        guard let i = slotOf[field] else { return }
        switch formatOf[field] ?? nil {
        case .referenceDate?: values[i] = .fixedPoint(millis - Self.referenceDateMillis, places: 3)
        case .unix?: values[i] = .fixedPoint(millis, places: 3)
        case .unixMillis?: values[i] = .integer(Int(millis))
        case .orEmpty?, nil: values[i] = .string(Timestamp.iso8601(millis: millis))
        }
    }

    /// 2001-01-01T00:00:00Z in epoch milliseconds: Foundation's reference date.
    static var referenceDateMillis: Int64 { 978_307_200_000 }

    /// Writes the payload into `buffer`, keeping its capacity.
    func render(into buffer: inout [UInt8]) {
        template.render(into: &buffer, values: values)
    }
}
