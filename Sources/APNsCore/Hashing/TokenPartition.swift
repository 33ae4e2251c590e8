/// Which worker, and which shard, sends every push to one device token: both come from one 64-bit hash
/// of the token, so per-token order, 429 holds and dead tokens behave the same in one process, across
/// workers, and across shard processes.
///
/// The hash is FNV-1a over the token's bytes (ASCII letters folded to lower case, so one token in either
/// case lands in one place) mixed with MurmurHash3's finalizer. Workers take its high 32 bits and shards
/// its low 32 bits, each mapped onto its range by a multiply: the two choices are independent, so a
/// shard's tokens still spread over all of its workers. Stable across runs and machines.
public enum TokenPartition {
    /// The worker (0 ..< `workers`) for `token`.
    @inline(__always)
    public static func worker(for token: String, of workers: Int) -> Int {
        guard workers > 1 else { return 0 }
        return worker(hash: hash(token), of: workers)
    }

    /// The shard (0 ..< `shards`) for `token`.
    @inline(__always)
    public static func shard(for token: String, of shards: Int) -> Int {
        guard shards > 1 else { return 0 }
        return shard(hash: hash(token), of: shards)
    }

    @inline(__always)
    static func worker(hash h: UInt64, of workers: Int) -> Int {
        Int(truncatingIfNeeded: h.multipliedFullWidth(by: UInt64(workers)).high)
    }

    @inline(__always)
    static func shard(hash h: UInt64, of shards: Int) -> Int {
        Int(truncatingIfNeeded: ((h & 0xFFFF_FFFF) &* UInt64(shards)) >> 32)
    }

    @inline(__always)
    public static func hash(_ token: String) -> UInt64 {
        var token = token
        return token.withUTF8 { hash($0) }
    }

    @inline(__always)
    public static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h = FNV1a.hash(bytes, folding: .letters)
        // fmix64: FNV's low bits alone are weak (its lowest bit is the parity of the bytes' lowest bits).
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }
}
