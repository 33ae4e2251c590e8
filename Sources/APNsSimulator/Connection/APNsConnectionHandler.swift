import APNsCore
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix

/// One client connection of the validating simulator, at the HTTP/2 frame level: no child channel per
/// stream. Each stream's headers and body are gathered, the validator is asked, and the answer goes out
/// on the same stream id like APNs (200 + `apns-id`, or the status with `{"reason": …}`). The streams'
/// bookkeeping (headers, body, `content-length`, answered, the highest stream id, the stall) is decided
/// by `StreamStateMachine`, and the connection's rules (the stream limit: 1 until the first valid provider
/// token, then the configured value, streams past it refused with RST_STREAM REFUSED_STREAM; injected
/// faults; GOAWAY after N streams, after T seconds or when idle) by `ConnectionPolicy`; both return
/// actions, which this handler carries out. It owns the frames written, the provider-token state and the
/// counters. Lives on the connection's event loop.
final class APNsConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private let configuration: SimulatorConfiguration
    private let validator: RequestValidator
    /// The broadcast APIs (`/1/...`, `/4/...`; `ChannelRequests.swift`).
    private let channelRequests: ChannelRequestValidator
    private let counters: SimulatorCounterBox
    private let rewriter: SettingsRewriter
    private var streams = StreamStateMachine()
    private var auth = ConnectionAuthState()
    /// Scanned into for each push's payload: one tape a connection, so that its storage is reused.
    private var payloadTape = JSONTape()
    private var policy: ConnectionPolicy
    private var ids = ResponseIDs()
    private var delta: ConnectionCounters
    private var totals = TotalsDelta()
    private var needsFlush = false
    /// Whether an answer has carried `apns-id` / `apns-unique-id` yet: the first one is indexed, so that
    /// the HPACK encoder finds the name in its table and Huffman-codes only the value afterwards.
    private var apnsIDNameIndexed = false
    private var uniqueIDNameIndexed = false
    /// Where each answered push is told (`simulate --report`); nil: nowhere.
    private let requestLog: ConnectionRequestLog?

    /// Counts beyond `ConnectionCounters` that go straight to the totals.
    private struct TotalsDelta {
        var verifications = 0, raises = 0, drops = 0, overruns = 0, malformed = 0, pings = 0
        /// The capacity model's queue wait of the requests answered, µs.
        var queuedMicros = 0
        var isEmpty: Bool { verifications == 0 && raises == 0 && drops == 0 && overruns == 0 && malformed == 0 && pings == 0 && queuedMicros == 0 }
    }

    /// `channels`: the simulator's broadcast channels (nil: a store of the connection's own, for tests).
    init(configuration: SimulatorConfiguration, validator: RequestValidator, counters: SimulatorCounterBox,
         rewriter: SettingsRewriter, connectionID: Int, channels: ChannelStore? = nil, requestLog: ConnectionRequestLog? = nil) {
        self.configuration = configuration
        self.validator = validator
        let store = channels ?? ChannelStore(limitPerBundle: configuration.broadcast.channelLimitPerBundle)
        self.channelRequests = ChannelRequestValidator(validator: validator, channels: store)
        self.counters = counters
        self.rewriter = rewriter
        self.policy = ConnectionPolicy(configuration: configuration, connectionID: connectionID)
        self.delta = ConnectionCounters(id: connectionID)
        self.requestLog = requestLog
        rewriter.enqueue(configuration.initialMaxConcurrentStreams)
    }

    // MARK: Lifecycle

    func channelActive(context: ChannelHandlerContext) {
        scheduleConnectionFaults(context: context)
        context.fireChannelActive()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { scheduleConnectionFaults(context: context) }
    }

    /// Schedules the connection's timers (GOAWAY after T seconds, idle checks) the first time it is called.
    /// Times come from the event loop, so that an `EmbeddedEventLoop` moves them in tests.
    private func scheduleConnectionFaults(context: ChannelHandlerContext) {
        let timers = policy.connectionStarted(now: context.eventLoop.now.uptimeNanoseconds)
        if let seconds = timers.goAwayAfterSeconds {
            context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) { [weak self] in
                guard let self, !self.streams.isStalled else { return }
                self.carryOut(self.policy.goAwayTimerFired(), context: context)
            }
        }
        if let idle = timers.idleCheckAfterSeconds { scheduleIdleCheck(context: context, after: idle) }
    }

    private func scheduleIdleCheck(context: ChannelHandlerContext, after seconds: Double) {
        context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) { [weak self] in
            guard let self, !self.streams.isStalled, context.channel.isActive else { return }
            switch self.policy.idleCheckFired(now: context.eventLoop.now.uptimeNanoseconds, openStreams: self.streams.openStreams) {
            case .none: break
            case let .goAway(reason): self.goAway(context: context, reason: reason)
            case let .checkAgain(seconds): self.scheduleIdleCheck(context: context, after: seconds)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        delta.open = false
        mergeCounters()
        counters.update { $0.connectionsClosed += 1 }
        context.fireChannelInactive()
    }

    // MARK: Frames

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A stalled connection reads nothing, stream frames or not.
        guard !streams.isStalled else { return }
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case let .headers(h):
            carryOut(streams.receiveHeaders(h.headers, endStream: h.endStream, streamID: frame.streamID), context: context)
        case let .data(d):
            carryOut(streams.receiveData(d, streamID: frame.streamID), context: context)
        case .rstStream:
            delta.resetsReceived += 1
            carryOut(streams.resetByPeer(frame.streamID), context: context)
        case .settings(.ack):
            policy.settingsAcknowledged()
        case .ping(_, ack: false):
            // NIO answers it; counted so that a client's keepalive shows.
            totals.pings += 1
            mergeCounters()
        default:
            break
        }
    }

    /// Carries out what the streams' state machine decided; done outside its dictionary access, since
    /// answering closes the stream, which removes it.
    @inline(__always)
    private func carryOut(_ action: StreamStateMachine.Action, context: ChannelHandlerContext) {
        switch action {
        case .none, .ignore:
            break
        case let .reset(streamID, code):
            reset(context: context, streamID: streamID, code)
        case let .admit(streamID, fields, endStream):
            admitOrRefuse(streamID, fields, endStream: endStream, context: context)
        case let .validate(streamID, fields, body):
            respond(context: context, streamID: streamID, fields, body: body)
        }
    }

    /// A new stream's well-formed request headers: the connection's rules take it or refuse it.
    private func admitOrRefuse(_ streamID: HTTP2StreamID, _ fields: RequestHeaderFields, endStream: Bool,
                               context: ChannelHandlerContext) {
        if case .refuse = policy.streamOpened(openStreams: streams.openStreams, now: context.eventLoop.now.uptimeNanoseconds) {
            refuse(context: context, streamID: streamID)
            return
        }
        carryOut(streams.admit(streamID, fields, endStream: endStream), context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        mergeCounters()
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // About five events a request: compare their types first, and cast only the ones read (a failed
        // `as?` cast costs as much as a successful one).
        let eventType = type(of: event)
        if eventType == NIOHTTP2WindowUpdatedEvent.self {
            let window = event as! NIOHTTP2WindowUpdatedEvent
            // Streams that are still open only: a closed stream's window no longer matters.
            if let update = InboundWindowKeeper.update(for: window), window.streamID == .rootStream || streams.isOpen(window.streamID) {
                context.write(wrapOutboundOut(update), promise: nil)
                needsFlush = true
            }
        } else if eventType == StreamClosedEvent.self {
            streams.streamClosed((event as! StreamClosedEvent).streamID)
        } else if eventType == ChannelShouldQuiesceEvent.self {
            // The server is going down: GOAWAY, then close once what was taken is answered.
            goAway(context: context, reason: .shutdown)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // Stream errors are the HTTP/2 layer's business (it resets the stream); connection errors close
        // the connection there too. Nothing to do here but not let them reach the pipeline's end.
        // Rapid-reset and glitch protection: the HTTP/2 layer has sent GOAWAY ENHANCE_YOUR_CALM.
        if error is NIOHTTP2Errors.ExcessiveRSTFrames || error is NIOHTTP2Errors.ExcessiveNumberOfGlitches
            || error is NIOHTTP2Errors.ExcessiveStreamErrors {
            counters.update { $0.goAwaysSent["ENHANCE_YOUR_CALM", default: 0] += 1 }
        }
    }

    // MARK: Answers

    private func refuse(context: ChannelHandlerContext, streamID: HTTP2StreamID) {
        delta.streamsRefused += 1
        mergeCounters()
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.refusedStream))), promise: nil)
        needsFlush = true
    }

    /// RST_STREAM and no answer. A stream whose `content-length` is malformed or disagrees with its body
    /// gets PROTOCOL_ERROR here, as the HTTP/2 layer's own check did (it is off: this is cheaper, reading
    /// the headers the validator gathers anyway).
    private func reset(context: ChannelHandlerContext, streamID: HTTP2StreamID, _ code: HTTP2ErrorCode) {
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(code))), promise: nil)
        needsFlush = true
    }

    private func respond(context: ChannelHandlerContext, streamID: HTTP2StreamID, _ fields: RequestHeaderFields, body: ByteBuffer?) {
        if ChannelRoute.api(ofPath: fields.path) != nil {
            respondToBroadcastAPI(context: context, streamID: streamID, fields, body: body)
            return
        }
        let arrival = requestLog == nil ? 0 : context.eventLoop.now.uptimeNanoseconds
        let verificationsBefore = auth.verifications
        var decision = validator.evaluate(fields, body: body ?? ByteBuffer(), auth: &auth, tape: &payloadTape)
        totals.verifications += auth.verifications - verificationsBefore
        delta.requests += 1

        guard let answer = connectionRules(accepted: decision.verdict == .accept, context: context) else {
            if requestLog != nil { log(fields, nil, arrival: arrival, delayMilliseconds: 0, body: body, context: context) }
            return
        }
        // A fault that replaces a valid answer.
        if let injected = answer.injected { decision = Decision(.reject(injected)) }
        let shutdownAfter = answer.goAwayAfter
        if requestLog != nil { log(fields, decision, arrival: arrival, delayMilliseconds: answer.delayMilliseconds, body: body, context: context) }
        totals.queuedMicros += Int(answer.queuedMilliseconds * 1000)

        switch decision.verdict {
        case .accept:
            delta.accepted += 1
            if decision.budgetOverrun { totals.overruns += 1 }
            if decision.malformedLiveActivity { totals.malformed += 1 }
        case let .reject(reason):
            delta.rejected[reason.rawValue, default: 0] += 1
        }
        carryOut(answer.limit, context: context)

        let apnsID = fields.apnsID ?? ids.next()
        let delay = answer.delayMilliseconds
        if delay == 0, !policy.isGoingAway, case .accept = decision.verdict {
            // The common answer: one HEADERS frame, written at once.
            mergeCounters()
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: successHeaders(apnsID: apnsID), endStream: true)))),
                promise: nil)
            needsFlush = true
            afterAnswer(context: context, shutdown: shutdownAfter)
            return
        }
        send(responseFrames(decision, streamID: streamID, apnsID: apnsID), context: context, streamID: streamID,
             delayMilliseconds: delay, shutdownAfter: shutdownAfter)
    }

    /// Tells the request log what a push was answered (nil `decision`: nothing, the connection was reset or
    /// stalled), and when: the validation's end plus the model's delay.
    private func log(_ fields: RequestHeaderFields, _ decision: Decision?, arrival: UInt64, delayMilliseconds: Double,
                     body: ByteBuffer?, context: ChannelHandlerContext) {
        guard let requestLog else { return }
        var status = 0, reason: String? = "no_answer"
        if let decision {
            switch decision.verdict {
            case .accept: (status, reason) = (200, nil)
            case let .reject(r): (status, reason) = (r.status, r.rawValue)
            }
        }
        let prefix = "/3/device/"
        let token = fields.path.flatMap { $0.hasPrefix(prefix) ? $0.dropFirst(prefix.utf8.count) : nil }
        let answerAt = context.eventLoop.now.uptimeNanoseconds + UInt64(max(0, delayMilliseconds) * 1_000_000)
        requestLog.answered(AnsweredRequest(
            pushType: fields.pushType, topic: fields.topic, priority: fields.priority, deviceToken: token, status: status, reason: reason,
            arrivalNanos: arrival, answerNanos: answerAt, payload: fields.pushType == "liveactivity" ? body : nil,
            budgetOverrun: decision?.budgetOverrun ?? false, collapseID: fields.collapseID, expiration: fields.expiration))
    }

    /// The connection's rules for a request just validated (stream limit, faults, GOAWAY), or nil when
    /// they reset or stalled the connection instead (the request then gets no answer): one decision for
    /// pushes and for the broadcast APIs.
    private func connectionRules(accepted: Bool, context: ChannelHandlerContext) -> ConnectionPolicy.Answer? {
        switch policy.requestValidated(accepted: accepted, authenticated: auth.isAuthenticated,
                                       now: context.eventLoop.now.uptimeNanoseconds) {
        case .resetConnection:
            resetConnection(context: context)
            return nil
        case .stallConnection:
            stall(context: context)
            return nil
        case let .answer(a):
            return a
        }
    }

    /// A channel-management or broadcast request (`ChannelRequests.swift`): validated, then answered
    /// under the same connection rules as a push (stream limit, faults, delays, GOAWAY). The store changes
    /// only once no fault has replaced the answer.
    private func respondToBroadcastAPI(context: ChannelHandlerContext, streamID: HTTP2StreamID, _ fields: RequestHeaderFields,
                                       body: ByteBuffer?) {
        let verificationsBefore = auth.verifications
        var answer = channelRequests.evaluate(fields, body: body ?? ByteBuffer(), auth: &auth)
        totals.verifications += auth.verifications - verificationsBefore
        guard let rules = connectionRules(accepted: answer.isValid, context: context) else { return }
        if let injected = rules.injected {
            answer.outcome = .rejected(injected)
        } else if case let .pending(operation) = answer.outcome {
            answer.outcome = channelRequests.carryOut(operation)
            if answer.malformedLiveActivity, answer.isValid { totals.malformed += 1 }
        }
        carryOut(rules.limit, context: context)
        counters.update { ChannelRequests.count(answer, into: &$0) }
        let frames = ChannelRequests.frames(answer, streamID: streamID, requestID: answer.requestID ?? ids.next(), uniqueID: { ids.next() })
        send(frames, context: context, streamID: streamID, delayMilliseconds: rules.delayMilliseconds, shutdownAfter: rules.goAwayAfter)
    }

    /// Writes an answer's frames at once, or after `delayMilliseconds` (unless the stream is gone by
    /// then); then the policy hears that the stream was answered.
    private func send(_ frames: [HTTP2Frame], context: ChannelHandlerContext, streamID: HTTP2StreamID,
                      delayMilliseconds delay: Double, shutdownAfter: Bool) {
        if delay > 0 {
            context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(delay * 1_000_000))) { [weak self] in
                guard let self, !self.streams.isStalled, self.streams.isOpen(streamID) else { return }
                self.mergeCounters()
                self.write(frames, context: context)
                context.flush()
                self.afterAnswer(context: context, shutdown: shutdownAfter)
            }
        } else {
            // Counted before the answer can leave (the HTTP/2 layer flushes at the end of the read).
            mergeCounters()
            write(frames, context: context)
            needsFlush = true
            afterAnswer(context: context, shutdown: shutdownAfter)
        }
    }

    /// Writes an answer; after GOAWAY the last answer's write closes the connection once it is out.
    private func write(_ frames: [HTTP2Frame], context: ChannelHandlerContext) {
        for (i, f) in frames.enumerated() {
            if policy.isGoingAway, i == frames.count - 1 {
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.assumeIsolated().whenComplete { [weak self] _ in self?.closeIfDrained(context: context) }
                context.write(wrapOutboundOut(f), promise: written)
            } else {
                context.write(wrapOutboundOut(f), promise: nil)
            }
        }
    }

    /// After GOAWAY, once every stream it covers is answered: close, after a grace period. The client may
    /// still be sending (frames it wrote before it read the GOAWAY), and closing a socket with unread input
    /// sends a TCP reset, which can destroy answers already written: the client would resend pushes this
    /// server accepted. Within the grace the client normally reads its answers and closes first.
    private func closeIfDrained(context: ChannelHandlerContext) {
        guard streams.openStreams == 0, context.channel.isActive, !closeScheduled else { return }
        closeScheduled = true
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.closeGrace) {
            if context.channel.isActive { context.close(promise: nil) }
        }
    }

    /// How long a drained connection stays open after GOAWAY for the client to close it first.
    static let closeGrace = TimeAmount.milliseconds(500)
    private var closeScheduled = false

    private func afterAnswer(context: ChannelHandlerContext, shutdown: Bool) {
        carryOut(policy.streamAnswered(goAwayAfter: shutdown), context: context)
    }

    private func carryOut(_ action: ConnectionPolicy.GoAwayAction, context: ChannelHandlerContext) {
        if case let .goAway(reason) = action { goAway(context: context, reason: reason) }
    }

    static let status200: HPACKHeaders = [":status": "200"]

    /// Indexing for a per-answer id header: the first one on the connection is indexed, so that its name
    /// is in the HPACK table (and the encoder Huffman-codes only the value afterwards); the others are
    /// not, so that ids, which differ per answer, do not churn the table (whose search was 9% of a
    /// request in a profile).
    @inline(__always)
    private func idIndexing(_ indexed: inout Bool) -> HPACKIndexing {
        if indexed { return .nonIndexable }
        indexed = true
        return .indexable
    }

    /// `:status 200` and the ids.
    private func successHeaders(apnsID: String) -> HPACKHeaders {
        var headers = Self.status200
        let sandbox = configuration.environment == .sandbox
        headers.reserveCapacity(sandbox ? 3 : 2)
        headers.add(name: "apns-id", value: apnsID, indexing: idIndexing(&apnsIDNameIndexed))
        if sandbox { headers.add(name: "apns-unique-id", value: ids.next(), indexing: idIndexing(&uniqueIDNameIndexed)) }
        return headers
    }

    private func responseFrames(_ decision: Decision, streamID: HTTP2StreamID, apnsID: String) -> [HTTP2Frame] {
        switch decision.verdict {
        case .accept:
            return [HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: successHeaders(apnsID: apnsID), endStream: true)))]
        case let .reject(reason):
            var headers: HPACKHeaders = [":status": String(reason.status)]
            headers.add(name: "apns-id", value: apnsID, indexing: idIndexing(&apnsIDNameIndexed))
            headers.add(name: "content-type", value: "application/json")
            var body = ByteBuffer()
            if reason.status == 410 {
                let millis = decision.timestampMilliseconds ?? validator.nowMillis
                body.writeString(#"{"reason":"\#(reason.rawValue)","timestamp":\#(millis)}"#)
            } else {
                body.writeString(reason.responseBody)
            }
            return [
                HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers))),
                HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(body), endStream: true))),
            ]
        }
    }

    /// Advertises the stream limit the policy chose (it already enforces it) and counts raises and drops.
    private func carryOut(_ action: ConnectionPolicy.LimitAction, context: ChannelHandlerContext) {
        switch action {
        case .keep:
            break
        case let .raise(value, final):
            totals.raises += 1
            sendLimit(context: context, value)
            // Without drops the wire limit never changes again: the rewriter can go.
            if final { rewriter.retireWhenDone = true }
        case let .raiseThenDrop(value, then):
            totals.raises += 1
            sendLimit(context: context, value)
            totals.drops += 1
            sendLimit(context: context, then)
        case let .drop(value):
            totals.drops += 1
            sendLimit(context: context, value)
        case let .restore(value):
            sendLimit(context: context, value)
        }
    }

    private func sendLimit(context: ChannelHandlerContext, _ value: Int) {
        rewriter.enqueue(value)
        // The HTTP/2 layer sees its own hard limit; the rewriter puts `value` on the wire.
        let settings = HTTP2Frame(streamID: .rootStream, payload: .settings(.settings([
            HTTP2Setting(parameter: .maxConcurrentStreams, value: configuration.effectiveHardLimit),
        ])))
        context.write(wrapOutboundOut(settings), promise: nil)
        needsFlush = true
    }

    /// GOAWAY with `{"reason": …}` as debug data; the connection closes once its open streams are answered.
    private func goAway(context: ChannelHandlerContext, reason: Reason) {
        guard !policy.isGoingAway, context.channel.isActive, policy.beginGoAway() else { return }
        delta.endedBy = reason.rawValue
        counters.update { $0.goAwaysSent[reason.rawValue, default: 0] += 1 }
        var debug = ByteBuffer()
        debug.writeString(reason.responseBody)
        let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: streams.highestStreamID, errorCode: .noError, opaqueData: debug))
        // Closed once GOAWAY (and every answer written before it) is out, or after the last open
        // stream's answer (see `write`).
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { [weak self] _ in self?.closeIfDrained(context: context) }
        context.writeAndFlush(wrapOutboundOut(frame), promise: written)
    }

    /// Silences the connection: stops reading from the socket (so the HTTP/2 layer acknowledges no more
    /// PINGs or SETTINGS either) and drops every answer still to be written; it stays open.
    private func stall(context: ChannelHandlerContext) {
        streams.stall()
        delta.endedBy = "stall"
        counters.update { $0.connectionsStalled += 1 }
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
    }

    /// Ends the connection with a TCP reset: no GOAWAY, no answer.
    private func resetConnection(context: ChannelHandlerContext) {
        delta.endedBy = "reset"
        counters.update { $0.connectionsReset += 1 }
        let channel = context.channel
        guard let provider = channel as? SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        // SO_LINGER 0: close() sends RST instead of FIN.
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
    }

    private func mergeCounters() {
        guard delta.requests > 0 || delta.resetsReceived > 0 || delta.streamsRefused > 0 || delta.endedBy != nil || !delta.open || !totals.isEmpty else {
            return
        }
        let t = totals
        counters.merge(delta) { c in
            c.tokenVerifications += t.verifications
            c.streamLimitRaises += t.raises
            c.streamLimitDrops += t.drops
            c.liveActivityBudgetOverruns += t.overruns
            c.liveActivityMalformed += t.malformed
            c.pingsReceived += t.pings
            c.capacityWaitMicros += t.queuedMicros
        }
        delta = ConnectionCounters(id: delta.id)
        totals = TotalsDelta()
    }
}
