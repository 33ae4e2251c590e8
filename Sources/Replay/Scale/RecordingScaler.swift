import APNsCore

/// A recording grown `factor` times through its app's recipe (`apnsbench scale`): every line is written
/// `factor` times in a row, copy 0 as recorded and copy `c` with each identity value the recipe reads
/// (``Recipe/identityFields``: entity and group keys, device tokens, captured path ids) replaced by its clone
/// in copy `c` (``IdentityCloner``). The copies of a line share its recorded time, so the recording keeps its
/// duration and order, each copy replays the recorded app on a population of its own, and fan-out per group
/// and pushes per entity keep their recorded distributions while every total grows `factor` times.
///
/// Two passes over the file, each streaming: the first reads every line (a line that is not JSON is an error
/// naming it, before anything is written) and sizes the cloning rules; the second writes. Memory does not
/// grow with the recording or the factor. A line the recipe does not match is copied as recorded, so a
/// recording's bad lines grow with it.
public struct RecordingScaler {
    public let recipe: Recipe
    public let factor: Int
    public let seed: UInt64
    private let fields: [[Int]]

    /// - Precondition: `factor` ≥ 1.
    public init(recipe: Recipe, factor: Int, seed: UInt64) {
        precondition(factor >= 1, "RecordingScaler: factor must be at least 1")
        self.recipe = recipe
        self.factor = factor
        self.seed = seed
        fields = recipe.identityFields
    }

    /// Each event's cloned fields, by name as the recipe writes them (`body.student_id`, `path.requestId`).
    public var clonedFields: [(event: String, fields: [String])] {
        recipe.events.indices.map { e in
            let event = recipe.events[e]
            return (event.name, fields[e].map { event.fields[$0].shownAs })
        }
    }

    /// What a scaling read and wrote.
    public struct Summary: Sendable, Equatable {
        public var linesRead = 0
        public var linesWritten = 0
        /// Lines no event of the recipe matches (copied as recorded).
        public var unmatched = 0
        public var cloner: IdentityCloner
    }

    /// The first pass: the cloning rules for this recording.
    public func cloner(recording path: String) throws -> IdentityCloner {
        var range = IdentityRange()
        try forEachLine(path) { _, identities, _ in identities?.survey(into: &range) }
        switch range.cloner(factor: factor, seed: seed) {
        case let .success(c): return c
        case let .failure(e): throw ProfileError(file: path, line: nil, message: "cannot be scaled: \(e)")
        }
    }

    /// The second pass: the scaled recording, in blocks of whole lines, to `write`.
    /// - Parameter cloner: the first pass's (``cloner(recording:)``) over the same file.
    public func scale(recording path: String, cloner: IdentityCloner, write: ([UInt8]) throws -> Void) throws -> Summary {
        var summary = Summary(cloner: cloner)
        var block: [UInt8] = []
        block.reserveCapacity(1 << 16)
        try forEachLine(path) { bytes, identities, _ in
            summary.linesRead += 1
            if identities == nil { summary.unmatched += 1 }
            let line = identities ?? LineIdentities()
            for c in 0 ..< factor {
                line.write(bytes, copy: c, cloner: cloner, to: &block)
                if block.count >= 1 << 16 {
                    try write(block)
                    block.removeAll(keepingCapacity: true)
                }
            }
            summary.linesWritten += factor
        }
        if !block.isEmpty { try write(block) }
        return summary
    }

    /// Every copy of each device token in the file at `path` (one a line: a profile's `dead_tokens`), in
    /// order, copy 0 first; what a scaled recording's run plants dead.
    public func deadTokens(path: String, cloner: IdentityCloner, write: ([UInt8]) throws -> Void) throws {
        let reader = try LineReader(path: path)
        var out: [UInt8] = []
        while let line = try reader.next() {
            let token = String(decoding: line.bytes, as: UTF8.self).trimmingWhitespace
            for c in 0 ..< factor { out.append(contentsOf: Array((cloner.text(token, copy: c) + "\n").utf8)) }
            if out.count >= 1 << 16 {
                try write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        if !out.isEmpty { try write(out) }
    }

    /// Reads every non-blank line of `path` and its identities (nil: no event matches it).
    private func forEachLine(_ path: String, _ body: (ArraySlice<UInt8>, LineIdentities?, Int) throws -> Void) throws {
        let reader: LineReader
        do { reader = try LineReader(path: path) } catch let e as StreamError {
            throw ProfileError(file: path, line: nil, message: "the recording cannot be read (\(e))")
        }
        var matcher = RecipeLineMatcher(recipe)
        while true {
            let line: LineReader.Line
            do {
                guard let next = try reader.next() else { break }
                line = next
            } catch let StreamError.lineTooLong(n) {
                throw ProfileError(file: path, line: n, message: "line too long (over \(reader.maxLineBytes) bytes)")
            } catch let e as StreamError {
                throw ProfileError(file: path, line: nil, message: "the recording cannot be read (\(e))")
            }
            let object: FlatJSONObject
            do { object = try FlatJSON.parse(line.bytes, line: line.number) } catch let e as StreamLineError {
                throw ProfileError(file: path, line: line.number, message: "\(e.cause): a line that is not a JSON object cannot be scaled")
            }
            let identities = matcher.match(object).map { event in
                LineIdentities(object, recipe: recipe, event: event, fields: fields[event])
            }
            try body(line.bytes, identities, line.number)
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
