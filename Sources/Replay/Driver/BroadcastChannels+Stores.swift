import Foundation

/// The stores a recording's activities subscribe to (the recipe's `subscribe:` field), read from its raw
/// lines before the run: a broadcast run makes one channel per store before anything is sent, and `plan`
/// makes up one id per store.
extension BroadcastChannels {
    /// The stores `device.register` events subscribe activities to (`input_push_channel`), ascending. Reads
    /// the raw lines (a bad line is the run's to report, not this scan's).
    public static func subscribedStores(stream path: String, recipe: Recipe) throws -> [Int] {
        guard let field = recipe.subscriptionFields.first else { return [] }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw StreamUnreadable(path: path) }
        defer { try? handle.close() }
        let key = Array("\"\(field)\"".utf8)
        var stores = Set<Int>()
        var carry: [UInt8] = []
        while true {
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            carry.append(contentsOf: chunk)
            var start = 0
            while let newline = carry[start...].firstIndex(of: 0x0A) {
                scan(carry[start..<newline], key: key, into: &stores)
                start = newline + 1
            }
            carry.removeSubrange(0..<start)
        }
        scan(carry[...], key: key, into: &stores)
        return stores.sorted()
    }

    private static func scan(_ line: ArraySlice<UInt8>, key: [UInt8], into stores: inout Set<Int>) {
        guard line.count > key.count, let at = line.firstRange(of: key) else { return }
        var i = at.upperBound
        while i < line.endIndex, line[i] == 0x20 || line[i] == 0x3A { i += 1 }
        var value = 0, digits = 0
        while i < line.endIndex, line[i] >= 0x30, line[i] <= 0x39, digits < 18 {
            value = value * 10 + Int(line[i] - 0x30)
            digits += 1
            i += 1
        }
        if digits > 0 { stores.insert(value) }
    }

    /// One made-up channel per subscribed store, `c0`, `c1`, … by ascending store: what `plan` and the
    /// recording's peak use, as no channel API is asked (each broadcast is one push all the same).
    public static func madeUp(stream path: String, recipe: Recipe) throws -> BroadcastChannels {
        let stores = try subscribedStores(stream: path, recipe: recipe)
        return BroadcastChannels(byStore: Dictionary(uniqueKeysWithValues: stores.enumerated().map {
            ($0.element, Channel(index: Int32($0.offset), id: "c\($0.offset)"))
        }))
    }
}

/// A recording that cannot be opened for reading.
public struct StreamUnreadable: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "stream \(path) cannot be read" }
}
