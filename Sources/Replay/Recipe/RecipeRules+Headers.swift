import APNsCore

/// The header values a push rule reads once per event (``APNsHeaders/perPush``: `expiration_seconds`, and the
/// text headers from fields or formats) or makes per push, checked by their rows as APNs would take them; a
/// value APNs would refuse makes the event a bad line.
extension RecipeRules {
    /// Seconds after the run's start; -1 when the value is absent (no header).
    func expirationSeconds(_ source: Recipe.Source, recipient: Int? = nil, key: EntityKey? = nil) throws -> Int {
        let row = APNsHeaders.expiration
        let v = value(source, recipient: recipient, key: key)
        var seconds: Int?
        switch v {
        case .absent, .omit: return -1
        case let .int(n): seconds = n
        default: break
        }
        if let why = row.value.refusal(seconds: seconds, shown: v.text ?? "a list") {
            throw StreamLineError(line: line, cause: .badValue(field: row.key, why: why))
        }
        return seconds!
    }

    /// `expiration_at`: the seconds from the event's recorded time to the absolute time (a time, or int seconds
    /// since 1970) it reads; 0 (now or never) when that time is not after the event; -1 when absent.
    func expirationAfterEvent(_ source: Recipe.Source, recipient: Int? = nil, key: EntityKey? = nil) throws -> Int {
        let seconds: Int64
        switch value(source, recipient: recipient, key: key) {
        case .absent, .omit: return -1
        case let .time(ms): seconds = ms.floorDiv(1000)
        case let .int(n): seconds = Int64(n)
        case let v: throw StreamLineError(line: line, cause: .badValue(field: "expiration_at", why: "\(v.text ?? "a list") is not a time"))
        }
        let span = seconds - at.floorDiv(1000)
        guard span <= 31_536_000 else {
            throw StreamLineError(line: line,
                                  cause: .badValue(field: "expiration_at", why: "\(span) seconds after the event; APNs keeps a push at most 31536000"))
        }
        return span <= 0 ? 0 : Int(span)
    }

    /// Writes the rule's text header `t` (``Recipe/PushRule/texts``) for the event, or for the push to
    /// `recipient`, into ``headerTexts``; false when a value it reads is absent (no header).
    func writeHeaderText(_ format: Recipe.HeaderText, rule: Int, _ t: Int, recipient: Int? = nil, key: EntityKey? = nil) throws -> Bool {
        headerTexts[rule][t].removeAll(keepingCapacity: true)
        for part in format.parts {
            switch part {
            case let .literal(bytes):
                headerTexts[rule][t].append(contentsOf: bytes)
            case let .value(source):
                let v = value(source, recipient: recipient, key: key)
                if case .string(let s) = v {
                    headerTexts[rule][t].append(contentsOf: s.utf8)
                } else if case .int(let n) = v {
                    headerTexts[rule][t].appendDecimal(n)
                } else if let text = v.text {
                    headerTexts[rule][t].append(contentsOf: text.utf8)
                } else {
                    return false
                }
            }
        }
        let header = rules[rule].texts[t].header
        if let why = header.value.refusal(text: headerTexts[rule][t]) {
            throw StreamLineError(line: line, cause: .badValue(field: header.key, why: why))
        }
        return true
    }

    /// Reads the headers of rule `r` that read the recipient (``Recipe/PushRule/perPushHeaders``) for this push
    /// into entry `e`, where ``fillHeaders(_:_:)`` takes them; a value APNs would refuse fails this push alone.
    func recipientHeaders(_ e: Int, _ r: Int, recipient: Int?, key: EntityKey?) {
        let perPush = rules[r].perPushHeaders
        do {
            if perPush & Recipe.PushRule.expirationBit != 0, let source = rules[r].expiration {
                plan.entries[e].expirationSeconds = try rules[r].expirationAt ? expirationAfterEvent(source, recipient: recipient, key: key)
                    : expirationSeconds(source, recipient: recipient, key: key)
            }
            for t in rules[r].texts.indices where perPush & (1 << UInt16(t)) != 0 {
                guard case let .perEvent(format) = rules[r].texts[t].value else { continue }
                let bit: UInt8 = 1 << UInt8(t)
                let present = try writeHeaderText(format, rule: r, t, recipient: recipient, key: key)
                plan.entries[e].textsPresent = present ? plan.entries[e].textsPresent | bit : plan.entries[e].textsPresent & ~bit
            }
        } catch let error as StreamLineError {
            guard case let .badValue(field, why) = error.cause else { return }
            phase.record(.init(key: "\(rules[r].path).\(field)", fault: ExprFault(column: 1, message: why)))
        } catch {
            phase.record(.init(key: rules[r].path, fault: ExprFault(column: 1, message: "\(error)")))
        }
    }

    private static let expirationSlot = APNsHeaders.expiration.slot!

    /// Writes the header values of entry `e`'s rule into `push` (read for the event, or made for this push), and
    /// clears the others, so the push holds only its own.
    @inline(__always)
    func fillHeaders(_ push: inout OutgoingPush, _ e: Int) {
        let r = plan.entries[e].rule
        push.headers.clear()
        if rules[r].expiration != nil {
            let seconds = plan.entries[e].expirationSeconds, fromSend = rules[r].expirationAt
            push.headers.update(Self.expirationSlot) { $0.seconds = seconds; $0.fromSend = fromSend }
        }
        for t in rules[r].texts.indices {
            switch rules[r].texts[t].value {
            case .perEvent:
                guard plan.entries[e].textsPresent & (1 << UInt8(t)) != 0 else { continue }
                push.headers.update(rules[r].texts[t].slot) { $0.text.append(contentsOf: headerTexts[r][t]) }
            case .perPush:
                // From the push's origin (its line, rule and place in the rule's pushes): the same plan makes the same values.
                let seed = UInt64(truncatingIfNeeded: line) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(r) << 40 ^ UInt64(plan.entries[e].next)
                let header = rules[r].texts[t].header
                push.headers.update(rules[r].texts[t].slot) { header.value.generate(seed: seed, into: &$0.text) }
            }
        }
    }
}
