import APNsCore
import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2

/// Handles one HTTP/2 stream: gathers the request's headers and body, asks the validator, answers like
/// APNs (200 + `apns-id`, or the status with `{"reason": …}`).
final class APNsStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let connection: SimulatorConnection
    private let validator: RequestValidator
    private let counters: SimulatorCounterBox
    private var headers: HPACKHeaders?
    private var body: ByteBuffer?
    private var answered = false

    init(connection: SimulatorConnection, validator: RequestValidator, counters: SimulatorCounterBox) {
        self.connection = connection
        self.validator = validator
        self.counters = counters
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .headers(h):
            if headers == nil { headers = h.headers }
            if h.endStream { respond(context: context) }
        case var .data(d):
            if case var .byteBuffer(buffer) = d.data {
                if body == nil {
                    body = buffer
                } else {
                    body!.writeBuffer(&buffer)
                }
            }
            if d.endStream { respond(context: context) }
            _ = d
        default:
            break
        }
    }

    private func respond(context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let request = ReceivedRequest(headers: headers ?? [:], body: body ?? context.channel.allocator.buffer(capacity: 0))
        let verificationsBefore = connection.auth.verifications
        let verdict = validator.validate(request, auth: &connection.auth)
        let verified = connection.auth.verifications - verificationsBefore
        let raised = connection.raiseStreamLimitIfNeeded()
        let apnsID = request.headers.first(name: "apns-id") ?? UUID().uuidString.lowercased()

        var response: HPACKHeaders
        switch verdict {
        case .accept:
            response = [":status": "200", "apns-id": apnsID]
            if validator.configuration.environment == .sandbox {
                response.add(name: "apns-unique-id", value: UUID().uuidString.lowercased())
            }
            context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: response, endStream: true))), promise: nil)
        case let .reject(reason):
            response = [":status": String(reason.status), "apns-id": apnsID, "content-type": "application/json"]
            context.write(wrapOutboundOut(.headers(.init(headers: response))), promise: nil)
            var buffer = context.channel.allocator.buffer(capacity: 64)
            if reason.status == 410 {
                let millis = Int(validator.configuration.clock.now() * 1000)
                buffer.writeString(#"{"reason":"\#(reason.rawValue)","timestamp":\#(millis)}"#)
            } else {
                buffer.writeString(reason.responseBody)
            }
            context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(buffer), endStream: true))), promise: nil)
        }
        counters.update { c in
            c.requests += 1
            c.tokenVerifications += verified
            if raised { c.streamLimitRaises += 1 }
            switch verdict {
            case .accept: c.accepted += 1
            case let .reject(reason): c.rejected[reason.rawValue, default: 0] += 1
            }
        }
    }
}
