import APNsCore

/// A workload declared in YAML (``RecipeLoader``): which stream lines are which event, the state the app's
/// backend keeps, and the pushes each event plans. ``RecipeRules`` runs it. Every reference in it (fields,
/// entities, groups, template slots) was resolved to an index when it was loaded, so nothing is looked up by
/// name per event.
public struct Recipe: Sendable {
    /// The workload's name in reports.
    public var name: String
    /// The recipe's file (for messages).
    public var source: String
    /// The line field holding each event's time, and how it is written.
    public var timeField = "at"
    public var timeFormat = RecordShape.TimeFormat.iso8601
    /// The top-level field events match on by value (`kind`), when every such event uses the same one; the
    /// reader then reads it once per line.
    var matchField: String?
    /// The line fields an API call's method and path are read from.
    var methodField = "method"
    var pathField = "path"
    var events: [EventRule]
    var entities: [EntityType]
    /// Group names, by index.
    var groups: [String]
    /// The groups whose memberships are kept by `join:` and `leave:` (a `member_of:` does not replace them).
    var joinedGroups: Set<Int> = []
    /// The group whose pushes become one broadcast per key with `delivery: broadcast`.
    var broadcastGroup: Int?
    /// The event that subscribes entities to a broadcast group key, and its field (for finding the channels a
    /// recording needs before the run).
    var subscriptions: [(event: Int, field: Int)] = []
    /// How many lets (`let:`) were compiled: the size of the run's cache of their values.
    var letCount = 0

    /// The push rules' distinct header constants (push type, topic, expiration, collapse id: each row's value set
    /// by a rule), in order; a push's ``OutgoingPush/kind`` is its part's first kind plus the index of its rule's
    /// constants here. The run's are laid under them once (``RunConfig/pushKinds(_:)``).
    public var pushKinds: [HeaderConstants]
    /// One line for each key the recipe gives by its former name, naming the key to write instead
    /// (`r.yaml:12: 'expiration_seconds' is deprecated: write 'expiration: 1h'`).
    public var deprecations: [String] = []

    struct EntityType: Sendable {
        var name: String
        /// Field names kept on it, by index.
        var fields: [String]
    }

    /// One kind of event.
    struct EventRule: Sendable {
        var name: String
        var match: Match
        var fields: [FieldRule]
        var state: StateChange?
        /// Its push rules, in order: each whose condition holds plans its pushes, in this order.
        var pushes: [PushRule]
        /// `require: ENTITY`: the entity the event names by this field must exist, or the event plans one push
        /// not sent (`unknown_target`) and changes nothing.
        var require: Required?
    }

    struct Required: Sendable {
        var field: Int
        var entity: Int
    }

    enum Match: Sendable {
        /// A top-level field equals a value.
        case value(field: String, equals: String)
        /// An API call: method and path pattern.
        case request(method: String, pattern: PathPattern)
    }

    enum FieldType: String, Sendable {
        case string, int, number, bool, token
        case ints = "[int]"
        case strings = "[string]"
    }

    struct FieldRule: Sendable {
        var name: String
        var type: FieldType
        var optional: Bool
        /// The key must be present; its value may be `null` (read as absent).
        var nullable = false
        /// Where it is read: a path into the line's JSON (`["body", "status"]`), or a capture of the matched path.
        var path: [String]
        var capture: Int?
        var oneOf: [RecipeValue]?
        var nonEmpty = false
        var emptyIsAbsent = false
        var min: Int?
        /// The name messages use: the path as written (`body.status`).
        var shownAs: String
    }

    struct StateChange: Sendable {
        enum Op: Sendable { case upsert, create, update, remove }
        var op: Op
        var entity: Int
        var key: Int
        var token: Int?
        var set: [(field: Int, source: Source)]
        /// `set: {FIELD: {add: …}}` or `{remove: …}`: items added to or removed from a kept list, after `set`.
        var edits: [ListEdit] = []
        /// Replaced as a whole when present; nil leaves the memberships as they are.
        var memberOf: [(group: Int, source: Source)]?
        /// `join:` and `leave:`: group keys (a value or a list) the entity joins or leaves, its other memberships kept.
        var joins: [(group: Int, source: Source, joins: Bool)] = []
        var subscribe: Int?
    }

    /// One edit of a list kept on an entity: an item added (unless the list holds it) or removed.
    struct ListEdit: Sendable {
        var field: Int
        var adds: Bool
        var item: Source
        /// Where it is written (`events.join.set.riders`), for messages.
        var key: String
    }

    enum Target: Sendable {
        case token(field: Int)
        case entity(Int, key: Source)
        /// Every member of the group key; a list key reaches the members of each of its keys, each once.
        indirect case group(Int, key: Source, ifAbsent: Target?)
        /// The members of every group target (each a ``group``), each once (`to: {groups: […]}`).
        indirect case groups([Target])

        /// Whether it may reach several group keys (a list key, or several targets): its recipients are gathered
        /// and each kept once.
        func fansOut(listKey: (Source) -> Bool) -> Bool {
            switch self {
            case .token, .entity: return false
            case .groups: return true
            case let .group(_, key, ifAbsent): return listKey(key) || (ifAbsent?.fansOut(listKey: listKey) ?? false)
            }
        }
    }

    /// One push rule of an event: whom it pushes to, its headers, template and slots, and the condition under
    /// which it plans anything. An immutable value once loaded.
    struct PushRule: Sendable {
        /// Its name in plans and counts: `name:`, or its place in the event's list (`1`, `2`, …); nil for an
        /// event's only rule given as a mapping (its pushes are counted under the event).
        var name: String?
        /// Its place among every push rule of the recipe (``RecipeRules`` keeps per-rule buffers by it).
        var index = 0
        /// Plans nothing unless it holds (a bool expression; the mapping form expanded into one); nil: always.
        var when: RecipeExpression?
        var to: Target
        /// The entity type recipients are (nil: a token on the event).
        var recipientEntity: Int?
        var template: PayloadTemplate
        var templateSource: String
        var slots: [Slot] = []
        var priority: PrioritySource = .profile
        var liveActivityEvent: Source?
        var remember: [(field: Int, source: Source)] = []
        var removeRecipientAfterEnd = false
        /// The push kind of each push: an index into ``Recipe/pushKinds``, or a table from a field's value.
        var kind: KindChoice = .fixed(0)
        /// The text headers (``APNsHeaders/perPushText``: `collapse_id`, …) the rule writes for each event or push
        /// (the push kind then carries none); a header not listed is the push kind's.
        var texts: [OwnText] = []
        /// `apns-expiration` read once per event, seconds after the run's start; nil: the push kind's.
        var expiration: Source?
        /// `expiration` is `expiration_at`: an absolute time, sent as the same span after the push's send as
        /// it was after the event's recorded time.
        var expirationAt = false
        /// Whether its recipients may come from several group keys (a list key, or `to: {groups: …}`).
        var fansOut = false
        /// `where:` of a group recipient: only the members for which it holds are pushed to.
        var recipientFilter: RecipeExpression?
        /// The slots whose value depends on the recipient (filled per push); the others are filled once per event.
        var perPushSlots: [Int] = []
        var perEventSlots: [Int] = []
        /// Whether `remember`'s values depend on the recipient (else they are read once per event).
        var rememberPerPush = false
        /// Whether the priority depends on the recipient (read per push; else once per event).
        var priorityPerPush = false
        /// Where `priority:` is written (`events.status.push.priority`), for a push whose priority failed.
        var priorityKey = "priority"
        /// Where the rule is written (`events.status.push`), for a push whose header value failed.
        var path = "push"
        /// The headers whose value depends on the recipient, read per push (the others once per event): bit
        /// ``expirationBit`` for ``expiration``, and a bit per place in ``texts``.
        var perPushHeaders: UInt16 = 0
        static let expirationBit: UInt16 = 1 << 15

        /// Sorts the slots and `remember` into what is filled per push and what once per event.
        mutating func splitByRecipient() {
            perPushSlots = slots.indices.filter { slots[$0].source.readsRecipient }
            perEventSlots = slots.indices.filter { !slots[$0].source.readsRecipient }
            rememberPerPush = remember.contains { $0.source.readsRecipient }
            switch priority {
            case let .computed(s), let .mapped(s, _, _): priorityPerPush = s.readsRecipient
            case .profile, .fixed, .field: priorityPerPush = false
            }
            perPushHeaders = expiration?.readsRecipient == true ? Self.expirationBit : 0
            for (t, text) in texts.enumerated() {
                if case let .perEvent(format) = text.value, format.readsRecipient { perPushHeaders |= 1 << UInt16(t) }
            }
        }
    }

    /// A header value written from an event's values: literal text and values in turn (`order-{{order_id}}`),
    /// or one value alone. An absent value leaves the header out.
    struct HeaderText: Sendable {
        enum Part: Sendable {
            case literal([UInt8])
            case value(Source)
        }
        var parts: [Part]

        var readsRecipient: Bool {
            parts.contains { if case let .value(s) = $0 { return s.readsRecipient } else { return false } }
        }
    }

    /// A text header a rule writes itself: its row, and how its value is made.
    struct OwnText: Sendable {
        /// ``APNsHeader/slot`` of `header`, read per push.
        var slot: Int
        var header: APNsHeader
        var value: Made

        enum Made: Sendable {
            /// Written once per event, from its values.
            case perEvent(HeaderText)
            /// Made for each push (``APNsHeader/Value/generate(seed:into:)``).
            case perPush
        }
    }

    enum KindChoice: Sendable {
        case fixed(Int32)
        case mapped(from: Source, table: [String: Int32], otherwise: Int32)
    }

    enum PrioritySource: Sendable {
        /// The profile's.
        case profile
        case fixed(Priority)
        /// A field holding 10, 5 or 1; absent: the profile's.
        case field(Int)
        /// A table from a value's text to a priority; a value it does not name (or none): `otherwise`, or the
        /// profile's.
        case mapped(Source, [String: Priority], otherwise: Priority?)
        /// An expression's int (10, 5 or 1; null: the profile's).
        case computed(Source)
    }

    struct Slot: Sendable {
        var source: Source
        var format: PayloadTemplate.SlotFormat?
    }

    indirect enum Source: Sendable {
        case field(Int)
        /// A field kept on an entity reached from an event field, hop by hop.
        case related(Relation)
        case recipient(Int)
        /// A field kept on an entity the recipient names by a field it keeps (`recipient.user.tier`: the
        /// recipient, an `entity`, keeps `field`, the key of the first hop's entity), hop by hop.
        case recipientRelated(entity: Int, field: Int, hops: [Relation.Hop])
        case recipientKey
        case time
        case timeUnix
        case activityTimestamp
        case liveActivityEvent
        /// A directive of how a value is written when it is absent, around the source (an expression, or a name's
        /// read): `.omit` leaves a slot's member out of the payload (`absent: omit`), ``RecipeValue/clear`` clears a
        /// kept field (`absent: null` in `set:`). Not an evaluation: a default is an expression, `S != null ? S : D`.
        case orElse(Source, RecipeValue)
        /// Whether the entity the event names by its key field exists (true, or absent when it does not).
        case entityExists(start: Int, entity: Int)
        /// The push token of the entity the event names (absent: no entity, or none yet).
        case entityToken(start: Int, entity: Int)
        /// An expression (docs/recipes.md, "Expressions"), compiled when the recipe was loaded.
        case expression(RecipeExpression)

        /// Whether its value depends on the push's recipient (its entity, key or token).
        var readsRecipient: Bool {
            switch self {
            case .recipient, .recipientRelated, .recipientKey, .activityTimestamp: return true
            case .field, .related, .time, .timeUnix, .liveActivityEvent, .entityExists, .entityToken: return false
            case let .expression(e): return e.readsRecipient
            case let .orElse(inner, _): return inner.readsRecipient
            }
        }
    }
}

extension Recipe {
    /// Every push rule of the recipe, in order (``PushRule/index``).
    var pushRules: [PushRule] { events.flatMap(\.pushes) }

    /// The line keys that say which broadcast channel an entity subscribed to (`input_push_channel`).
    public var subscriptionFields: [String] {
        subscriptions.map { events[$0.event].fields[$0.field].path.last! }
    }

    /// How the stream reader reads each line: the time field and format, and the field events match on
    /// when every event matches by a field's value (the reader then refuses a line without it, as a bad line).
    public var recordShape: RecordShape {
        let readsKind = events.allSatisfy { if case .value = $0.match { return true } else { return false } }
        return RecordShape(timeField: timeField, timeFormat: timeFormat, kindField: readsKind ? matchField : nil)
    }

    /// Whether the recipe can deliver by broadcast (it names a broadcast group).
    public var broadcasts: Bool { broadcastGroup != nil }
}
