#!/usr/bin/env python3
"""A small APNs sender on PyPI's h2 (the HTTP/2 state machine httpx and hyper use), over h2c, as a
backend team's own sender would be: known pushes, so that `apnsbench simulate --report` has exact counts.

    BEARER=<jwt> h2_sender.py HOST PORT TOTAL [CONNECTIONS]

Push i (1...TOTAL) goes to token "%064x" % i over connection (i - 1) * CONNECTIONS // TOTAL: an odd i is an
alert (priority 5, topic BUNDLE), an even i a Live Activity update (priority 10, topic
BUNDLE.push-type.liveactivity, the OrderChanges model's content-state), except:
  - i % BAD_PAYLOAD_EVERY == 1: a body that is not JSON;
  - i % BAD_TOPIC_EVERY == 2: another app's topic;
  - i % UNDECODABLE_EVERY == 4: a Live Activity content-state without totalItems.
(each *_EVERY from the environment, 0 = never; BUNDLE from the environment, default com.example.interop).
What a sender chooses, from the environment too: ALERT_PRIORITY (an alert's apns-priority, default 5);
EXPIRATION (apns-expiration on every push, default none); COLLAPSE_ID (apns-collapse-id on every push, a
%-format of i such as "order-%d", default none).
Prints one line: `sent=N` then `status_CODE=COUNT` for each status answered.
"""
import json
import os
import socket
import sys

import h2.config
import h2.connection
import h2.events

GOOD_STATE = {"totalOrders": 1, "lateOrders": 0, "totalItems": 2, "lastUpdated": 1}


def every(name):
    return int(os.environ.get(name, "0") or 0)


def push(i, bundle, rules):
    alert = i % 2 == 1
    topic = bundle if alert else bundle + ".push-type.liveactivity"
    if alert:
        body = {"aps": {"alert": {"title": "t", "body": "b"}}}
    else:
        state = dict(GOOD_STATE)
        if rules["undecodable"] and i % rules["undecodable"] == 4:
            del state["totalItems"]
        body = {"aps": {"timestamp": 1740500000, "event": "update", "content-state": state}}
    data = json.dumps(body).encode()
    if rules["bad_payload"] and i % rules["bad_payload"] == 1:
        data = b'{"aps":{'
    if rules["bad_topic"] and i % rules["bad_topic"] == 2:
        topic = "com.example.other" + ("" if alert else ".push-type.liveactivity")
    headers = [(":method", "POST"), (":scheme", "http"), (":path", "/3/device/%064x" % i), (":authority", "apns"),
               ("authorization", "bearer " + os.environ["BEARER"]), ("apns-topic", topic),
               ("apns-push-type", "alert" if alert else "liveactivity"),
               ("apns-priority", os.environ.get("ALERT_PRIORITY", "5") if alert else "10"),
               ("content-length", str(len(data)))]
    if os.environ.get("EXPIRATION"):
        headers.append(("apns-expiration", os.environ["EXPIRATION"]))
    if os.environ.get("COLLAPSE_ID"):
        headers.append(("apns-collapse-id", os.environ["COLLAPSE_ID"] % i))
    return headers, data


def send_all(host, port, pushes, statuses):
    """Sends `pushes` over one connection, as many at once as the server's stream limit allows."""
    sock = socket.create_connection((host, port), timeout=30)
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    waiting, open_streams = list(pushes), {}
    while waiting or open_streams:
        limit = min(conn.remote_settings.max_concurrent_streams, 50)
        while waiting and len(open_streams) < limit:
            headers, data = waiting.pop(0)
            sid = conn.get_next_available_stream_id()
            conn.send_headers(sid, headers)
            conn.send_data(sid, data, end_stream=True)
            open_streams[sid] = (headers, data, None)
        sock.sendall(conn.data_to_send())
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("the server closed the connection with %d pushes unanswered" % len(open_streams))
        for event in conn.receive_data(chunk):
            if isinstance(event, h2.events.ResponseReceived):
                status = dict(event.headers).get(":status")
                open_streams[event.stream_id] = open_streams[event.stream_id][:2] + (status,)
            elif isinstance(event, h2.events.DataReceived):
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                headers, data, status = open_streams.pop(event.stream_id)
                statuses[status] = statuses.get(status, 0) + 1
            elif isinstance(event, h2.events.StreamReset):
                # Refused past the stream limit (before the first token raised it): sent again.
                headers, data, _ = open_streams.pop(event.stream_id)
                waiting.insert(0, (headers, data))
        sock.sendall(conn.data_to_send())
    conn.close_connection()
    sock.sendall(conn.data_to_send())
    sock.close()


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 64
    host, port, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    connections = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    bundle = os.environ.get("BUNDLE", "com.example.interop")
    rules = {"bad_payload": every("BAD_PAYLOAD_EVERY"), "bad_topic": every("BAD_TOPIC_EVERY"), "undecodable": every("UNDECODABLE_EVERY")}
    statuses = {}
    for c in range(connections):
        mine = [push(i, bundle, rules) for i in range(1, total + 1) if (i - 1) * connections // total == c]
        send_all(host, port, mine, statuses)
    print("sent=%d " % total + " ".join("status_%s=%d" % (k, statuses[k]) for k in sorted(statuses)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
