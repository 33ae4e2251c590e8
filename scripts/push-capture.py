#!/usr/bin/env python3
"""An HTTP/2 (h2c) server that answers 200 to every request and records what each push carried.

    push-capture.py OUT_FILE      prints the port it listens on (127.0.0.1), then serves until killed

One line per request in OUT_FILE: method, path, every header in the order sent but `authorization` (the
provider token is never written) and `:authority` (the port), `apns-expiration` as `*` (an absolute time),
and the body's SHA-256. scripts/push-digest.sh sorts and hashes them.
"""
import hashlib, socket, sys, threading
import h2.config, h2.connection, h2.events

out = open(sys.argv[1], "w", buffering=1)
lock = threading.Lock()

def serve(sock):
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    streams = {}
    while True:
        data = sock.recv(65536)
        if not data:
            return
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.RequestReceived):
                streams[event.stream_id] = [event.headers, b""]
            elif isinstance(event, h2.events.DataReceived):
                streams[event.stream_id][1] += event.data
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                headers, body = streams.pop(event.stream_id)
                # The port and the absolute expiry change from run to run; whether an expiry was sent stays.
                kept = [f"{k}={'*' if k == 'apns-expiration' else v}" for k, v in headers if k not in ("authorization", ":authority")]
                with lock:
                    out.write(" ".join(kept) + " body=" + hashlib.sha256(body).hexdigest() + "\n")
                conn.send_headers(event.stream_id, [(":status", "200"), ("apns-id", "00000000-0000-0000-0000-000000000000")], end_stream=True)
        sock.sendall(conn.data_to_send())

listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(8)
print(listener.getsockname()[1], flush=True)
while True:
    client, _ = listener.accept()
    threading.Thread(target=serve, args=(client,), daemon=True).start()
