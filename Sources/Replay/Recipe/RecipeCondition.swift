extension Recipe {
    /// A test of the mapping form of `when:` that orders a number (`{gt: 5}`): the key is its name.
    enum Comparison: String, Sendable, CaseIterable {
        case gt, ge, lt, le
    }

    /// A field kept on an entity that an event field names, reached hop by hop: the event field's value is the
    /// key of the first hop's entity, each hop's field the key of the next hop's entity, and the last hop's
    /// field is the value.
    struct Relation: Sendable {
        struct Hop: Sendable {
            var entity: Int
            var field: Int
        }

        /// The event field holding the first entity's key.
        var start: Int
        var hops: [Hop]
    }
}
