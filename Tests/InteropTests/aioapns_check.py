"""Sends pushes with aioapns (PyPI), unchanged but for where it connects, to an APNs simulator.

aioapns hard-codes Apple's hosts and port 443 as class attributes of its protocol classes, so they are
pointed at the simulator here; everything else (TLS without ALPN, HTTP/2 via h2, ES256 JWT via PyJWT)
is the library's own. Prints one JSON line per push and exits 0 when good pushes got 200 and the bad
token got 400 BadDeviceToken.

usage: aioapns_check.py HOST PORT CA_PEM KEY_P8 KEY_ID TEAM_ID TOPIC GOOD_TOKEN
"""
import asyncio
import json
import ssl
import sys

from aioapns import APNs, NotificationRequest, PushType
from aioapns import connection


async def main(host, port, ca, key_path, key_id, team_id, topic, good):
    for cls in (connection.APNsDevelopmentClientProtocol, connection.APNsProductionClientProtocol):
        cls.APNS_SERVER = host
        cls.APNS_PORT = int(port)
    context = ssl.create_default_context(cafile=ca)
    with open(key_path) as f:
        key = f.read()
    client = APNs(key=key, key_id=key_id, team_id=team_id, topic=topic, use_sandbox=True, ssl_context=context,
                  max_connection_attempts=1)
    cases = [(good, "200", None)] * 3 + [("not-a-device-token", "400", "BadDeviceToken"), (good, "200", None)]
    ok = True
    for token, want_status, want_reason in cases:
        request = NotificationRequest(device_token=token, message={"aps": {"alert": {"title": "hi", "body": "from aioapns"}}},
                                      push_type=PushType.ALERT)
        result = await client.send_notification(request)
        line = {"token": token[:8], "status": result.status, "reason": result.description,
                "apns_id_matches": result.notification_id == request.notification_id}
        print(json.dumps(line), flush=True)
        ok = ok and result.status == want_status and result.description == want_reason and line["apns_id_matches"]
    client.pool.close()
    return ok


if __name__ == "__main__":
    if len(sys.argv) != 9:
        sys.exit(__doc__)
    sys.exit(0 if asyncio.run(main(*sys.argv[1:])) else 1)
