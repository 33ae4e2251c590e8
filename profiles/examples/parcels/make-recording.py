#!/usr/bin/env python3
"""Writes parcels.ndjson: a morning of a parcel courier's backend, as the API calls it logged.

One line per call: {"at", "method", "path", "body", "response": {"status", "body"}}, times ISO 8601 (UTC,
milliseconds) in increasing order. Only calls that change something are logged (no GETs), and only those
that succeeded.

  - POST /devices                               a customer's phone registers its push token (again on
                                                every launch; a reinstall brings a new token)
  - DELETE /devices/:installationId             the customer signed out on that phone
  - POST /parcels                               a parcel is booked for a customer; the answer has its id
  - PUT /parcels/:parcelId/activity-token       the customer started tracking it: the Live Activity's token
  - PUT /parcels/:parcelId/status               the courier's handheld: picked_up, in_transit (hub scans),
                                                out_for_delivery (stops away), delivered
  - POST /parcels/:parcelId/proof-of-delivery   the driver's signature capture, after delivered

Planted on purpose: a few parcels whose customer starts tracking only after pickup (their first statuses
have no token yet: not sent, no_token), one never tracked, two parcels booked the day before the recording
(their statuses name a parcel it never created: unknown_target), and one customer without any phone
registered (the delivered alert has no recipient: no_recipients).

Deterministic: the same seed writes the same bytes.  python3 make-recording.py [--seed 7] [--out parcels.ndjson]
"""
import argparse
import json
import random
from datetime import datetime, timedelta, timezone

CITIES = ["Leeds", "York", "Harrogate", "Wakefield", "Bradford", "Halifax"]
HUBS = ["Leeds hub", "Doncaster sorting centre", "Wakefield depot", "York depot"]
CARRIERS = ["Northline", "Parcelwise"]
FIRST = ["Amira", "Ben", "Chloe", "Dev", "Elif", "Finn", "Grace", "Hiro", "Isla", "Jonas", "Kemi", "Luca"]
LAST = ["Okafor", "Walsh", "Nguyen", "Patel", "Schmidt", "Haddad", "Brennan", "Sato", "Lind", "Moreau"]


def hex_token(rng, digits=64):
    return "".join(rng.choice("0123456789abcdef") for _ in range(digits))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="parcels.ndjson")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    start = datetime(2026, 3, 9, 6, 30, tzinfo=timezone.utc)
    calls = []  # (seconds after start, order, line)

    def call(t, method, path, body, status=200, response=None):
        calls.append((t, len(calls), {"method": method, "path": path, "body": body,
                                      "response": {"status": status, "body": response or {}}}))

    # Customers and their phones: most have one, some two; customer 1012 has none.
    customers = list(range(1001, 1031))
    devices = {}  # customer -> [(installation id, token)]
    for c in customers:
        if c == 1012:
            continue
        devices[c] = []
        for _ in range(2 if rng.random() < 0.3 else 1):
            inst = "inst-%08x" % rng.getrandbits(32)
            token = hex_token(rng)
            devices[c].append((inst, token))
            t = rng.uniform(0, 1800)
            call(t, "POST", "/devices", {"installation_id": inst, "customer_id": c, "device_token": token,
                                         "platform": "ios"}, 201, {"installation_id": inst})
            # Relaunches register the same token again; one reinstall brings a new one.
            for _ in range(rng.randint(0, 2)):
                t += rng.uniform(600, 9000)
                if rng.random() < 0.15:
                    token = hex_token(rng)
                call(t, "POST", "/devices", {"installation_id": inst, "customer_id": c, "device_token": token,
                                             "platform": "ios"}, 201, {"installation_id": inst})
    # Two sign-outs late in the morning.
    for c in (1003, 1017):
        inst, _ = devices[c][-1]
        call(5 * 3600 + rng.uniform(0, 1800), "DELETE", "/devices/" + inst, {}, 204)

    # Parcels: booked, tracked, moved, delivered.
    late_tracking = {3, 11, 27}
    never_tracked = {19}
    for n in range(40):
        parcel_id = "P%06d" % (48100 + n)
        customer = customers[n % len(customers)] if n != 5 else 1012
        tracking = "%s%09d" % (rng.choice(["NL", "PW"]), rng.randrange(10**9))
        city = rng.choice(CITIES)
        t = 1800 + n * 150 + rng.uniform(0, 120)
        call(t, "POST", "/parcels",
             {"customer_id": customer, "tracking_number": tracking, "carrier": rng.choice(CARRIERS),
              "destination_city": city, "weight_grams": rng.randrange(200, 9000)},
             201, {"id": parcel_id, "customer_id": customer, "tracking_number": tracking, "status": "booked"})
        token_at = None
        if n not in never_tracked:
            token_at = t + (rng.uniform(900, 1500) if n in late_tracking else rng.uniform(20, 300))
            call(token_at, "PUT", "/parcels/%s/activity-token" % parcel_id,
                 {"activity_token": hex_token(rng), "activity_id": "act-%08x" % rng.getrandbits(32)}, 204)
        t += 600 + rng.uniform(0, 200)  # before a late token
        updates = [("picked_up", {"location": city + " collection point"})]
        for hub in rng.sample(HUBS, rng.randint(1, 2)):
            updates.append(("in_transit", {"location": hub}))
        stops = rng.randint(3, 6)
        for s in range(stops, 0, -1 if rng.random() < 0.5 else -2):
            updates.append(("out_for_delivery", {"location": city, "stops_away": s, "eta_minutes": s * 7}))
        updates.append(("delivered", {"location": city}))
        for status, extra in updates:
            call(t, "PUT", "/parcels/%s/status" % parcel_id, dict(status=status, **extra), 200,
                 {"id": parcel_id, "status": status})
            t += rng.uniform(300, 1500) if status != "out_for_delivery" else rng.uniform(240, 600)
        signer = "%s %s" % (rng.choice(FIRST), rng.choice(LAST)) if rng.random() < 0.8 else "Left in safe place"
        call(t - rng.uniform(60, 200), "POST", "/parcels/%s/proof-of-delivery" % parcel_id,
             {"signed_by": signer, "photo_url": "https://pod.example.com/%s.jpg" % parcel_id}, 201,
             {"id": parcel_id, "customer_id": customer, "tracking_number": tracking, "status": "delivered"})

    # Two parcels booked yesterday: the recording never saw them created.
    for parcel_id in ("P048031", "P048044"):
        t = 2400 + rng.uniform(0, 600)
        for status in ("out_for_delivery", "delivered"):
            call(t, "PUT", "/parcels/%s/status" % parcel_id, {"status": status, "location": "Leeds"}, 200,
                 {"id": parcel_id, "status": status})
            t += 1200

    # A proof of delivery is logged after its delivered status (same handheld, later request).
    calls.sort(key=lambda c: (c[0], c[1]))
    with open(args.out, "w", encoding="utf-8") as out:
        last = None
        for seconds, _, line in calls:
            at = start + timedelta(milliseconds=int(seconds * 1000))
            if last is not None and at <= last:
                at = last + timedelta(milliseconds=1)
            last = at
            record = {"at": at.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (at.microsecond // 1000)}
            record.update(line)
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
