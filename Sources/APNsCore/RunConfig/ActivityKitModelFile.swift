extension RunConfig {
    /// The app's ActivityKit model a workload's Live Activity pushes are checked against (profile key
    /// `activity_model`): the Swift file that declares the attributes struct and its `ContentState`.
    ///
    /// APNs answers 200 to any well-formed payload; the device then decodes `aps.content-state` (and, for a
    /// start, `aps.attributes`) into this model and drops the push without a trace when that fails. Each
    /// Live Activity push is checked against it, and one that APNs delivers but the device could not decode
    /// is counted in the report (`pushes.wouldNotDecode`).
    public struct ActivityKitModelFile: Codable, Equatable, Sendable {
        /// The Swift file, resolved against the profile's folder.
        public var path: String
        /// SHA-256 of the file's bytes, lower-case hex: which model a run checked against (compare and merge
        /// tell two apart by it, not by the path).
        public var sha256: String
        /// `activity_model_type`: the attributes struct's name (dotted for a nested one), when the file
        /// declares several. Nil: the one struct declaring `ActivityAttributes`.
        public var attributesType: String?
        /// `date_decoding`: how the app's decoder reads `Date` values. Default ``DateDecoding/deferredToDate``.
        public var dateDecoding: DateDecoding
        /// `activity_model_flags`: the custom compilation flags the app's build sets (Xcode's Active Compilation
        /// Conditions), which the model file's `#if` blocks are evaluated with. Nil: not given, so `DEBUG` is
        /// unset (a Release build) and any other flag a `#if` tests is an error naming it.
        public var flags: [String]?

        public init(path: String, sha256: String, attributesType: String? = nil, dateDecoding: DateDecoding = RunDefaults.dateDecoding,
            flags: [String]? = nil) {
            self.path = path
            self.sha256 = sha256
            self.attributesType = attributesType
            self.dateDecoding = dateDecoding
            self.flags = flags
        }
    }

    /// A `JSONDecoder`'s `dateDecodingStrategy`, as the device contract applies it to `Date` properties.
    ///
    /// The default is ``deferredToDate``: ActivityKit decodes `content-state` and `attributes` with a
    /// `JSONDecoder` the app cannot configure, whose strategy is the default one, so a `Date` arrives as
    /// `Date(from:)` reads it, a number of seconds since 2001-01-01. Another strategy describes an app that
    /// decodes the same payload itself.
    public enum DateDecoding: String, Codable, Sendable, CaseIterable {
        /// A JSON number of seconds since 2001-01-01 00:00:00 UTC (`Date(from:)`), ActivityKit's.
        case deferredToDate
        /// A JSON number of seconds since 1970-01-01 00:00:00 UTC.
        case secondsSince1970
        /// A JSON number of milliseconds since 1970-01-01 00:00:00 UTC.
        case millisecondsSince1970
        /// A JSON string in ISO 8601.
        case iso8601
    }
}
