"""The tests' independent check of apnsbench's cryptography, with Python's `cryptography` package.

apnsbench signs provider tokens (APNsCore) and verifies them and makes its TLS certificates (APNsSimulator)
with OpenSSL's libcrypto through its own C wrappers; this script is the other implementation they are checked
against (TestSupport's ES256Oracle runs it). It reads one JSON list of operations on stdin and writes one
JSON list of results on stdout, in order. Bytes travel as hex. Private keys stay in this process, except a
key asked for as PEM (the tests read it into apnsbench; nothing prints or writes it).

Operations ("op"):
  new_key      {"curve": "P-256"|"P-384", "format": "pkcs8"|"sec1", "pem": bool} -> {"key": N, "public": X963, "pem": ...}
  sign         {"key": N, "message": HEX, "form": "raw"|"der"} -> HEX (ECDSA with SHA-256)
  verify       {"public": X963, "message": HEX, "signature": HEX (64 bytes raw r||s, else DER)} -> bool
  public_of    {"pem": PEM private key} -> X963 of its public key
  sha256       {"data": HEX} -> HEX
  certificates {"ca": PEM, "server": PEM, "key": PEM, "names": [DNS names to verify for]} -> facts (see below)
"""
import datetime
import hashlib
import ipaddress
import json
import sys

import cryptography

if int(cryptography.__version__.split(".")[0]) < 42:
    sys.exit(f"cryptography {cryptography.__version__} is older than 42 (x509.verification): run scripts/install-deps.sh --test")

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature
from cryptography.x509.oid import ExtendedKeyUsageOID, ExtensionOID

keys = []


def x963(public_key):
    return public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint).hex()


def new_key(req):
    curve = {"P-256": ec.SECP256R1(), "P-384": ec.SECP384R1()}[req["curve"]]
    key = ec.generate_private_key(curve)
    keys.append(key)
    out = {"key": len(keys) - 1, "public": x963(key.public_key())}
    if req.get("pem"):
        fmt = serialization.PrivateFormat.PKCS8 if req.get("format", "pkcs8") == "pkcs8" else serialization.PrivateFormat.TraditionalOpenSSL
        out["pem"] = key.private_bytes(serialization.Encoding.PEM, fmt, serialization.NoEncryption()).decode()
    return out


def sign(req):
    der = keys[req["key"]].sign(bytes.fromhex(req["message"]), ec.ECDSA(hashes.SHA256()))
    if req.get("form", "raw") == "der":
        return der.hex()
    r, s = decode_dss_signature(der)
    return (r.to_bytes(32, "big") + s.to_bytes(32, "big")).hex()


def verify(req):
    try:
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), bytes.fromhex(req["public"]))
    except ValueError:
        return False
    signature = bytes.fromhex(req["signature"])
    if len(signature) == 64:
        signature = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public.verify(signature, bytes.fromhex(req["message"]), ec.ECDSA(hashes.SHA256()))
        return True
    except (InvalidSignature, ValueError):
        return False


def public_of(req):
    return x963(serialization.load_pem_private_key(req["pem"].encode(), password=None).public_key())


def certificate_facts(cert):
    facts = {
        "version": cert.version.name,
        "serial_bits": cert.serial_number.bit_length(),
        "subject": cert.subject.rfc4514_string(),
        "issuer": cert.issuer.rfc4514_string(),
        "not_before": int(cert.not_valid_before_utc.timestamp()),
        "not_after": int(cert.not_valid_after_utc.timestamp()),
        "signature_algorithm": cert.signature_algorithm_oid._name,
        "curve": cert.public_key().curve.name,
        "extensions": [[e.oid._name, e.critical] for e in cert.extensions],
    }
    for e in cert.extensions:
        v = e.value
        if e.oid == ExtensionOID.BASIC_CONSTRAINTS:
            facts["ca"] = v.ca
            facts["path_length"] = v.path_length
        elif e.oid == ExtensionOID.KEY_USAGE:
            facts["key_usage"] = sorted(n for n in ("digital_signature", "content_commitment", "key_encipherment",
                                                     "data_encipherment", "key_agreement", "key_cert_sign", "crl_sign")
                                        if getattr(v, n))
        elif e.oid == ExtensionOID.EXTENDED_KEY_USAGE:
            facts["extended_key_usage"] = ["serverAuth" if u == ExtendedKeyUsageOID.SERVER_AUTH else u.dotted_string for u in v]
        elif e.oid == ExtensionOID.SUBJECT_ALTERNATIVE_NAME:
            facts["dns_names"] = v.get_values_for_type(x509.DNSName)
            facts["ip_addresses"] = [str(a) for a in v.get_values_for_type(x509.IPAddress)]
        elif e.oid == ExtensionOID.SUBJECT_KEY_IDENTIFIER:
            facts["subject_key_identifier"] = v.digest.hex()
        elif e.oid == ExtensionOID.AUTHORITY_KEY_IDENTIFIER:
            facts["authority_key_identifier"] = v.key_identifier.hex() if v.key_identifier else None
    return facts


def certificates(req):
    ca = x509.load_pem_x509_certificate(req["ca"].encode())
    server = x509.load_pem_x509_certificate(req["server"].encode())
    key = serialization.load_pem_private_key(req["key"].encode(), password=None)
    out = {"ca": certificate_facts(ca), "server": certificate_facts(server)}
    out["key_matches_server"] = x963(key.public_key()) == x963(server.public_key())
    out["key_is_pkcs8"] = req["key"].startswith("-----BEGIN PRIVATE KEY-----")
    try:
        ca.verify_directly_issued_by(ca)
        server.verify_directly_issued_by(ca)
        out["signatures_verify"] = True
    except Exception as e:  # noqa: BLE001 - the reason is the answer
        out["signatures_verify"] = f"{type(e).__name__}: {e}"
    # RFC 5280 path validation of a TLS server certificate, for each name a client may connect to.
    from cryptography.x509.verification import PolicyBuilder, Store
    now = datetime.datetime.now(datetime.timezone.utc)
    verified = {}
    for name in req.get("names", []) + ["127.0.0.1", "::1"]:
        try:
            subject = x509.IPAddress(ipaddress.ip_address(name))
        except ValueError:
            subject = x509.DNSName(name)
        try:
            verifier = PolicyBuilder().store(Store([ca])).time(now).build_server_verifier(subject)
            verifier.verify(server, [])
            verified[name] = True
        except Exception as e:  # noqa: BLE001 - the reason is the answer
            verified[name] = f"{type(e).__name__}: {e}"
    out["server_verifies_for"] = verified
    return out


OPS = {"new_key": new_key, "sign": sign, "verify": verify, "public_of": public_of,
       "sha256": lambda req: hashlib.sha256(bytes.fromhex(req["data"])).hexdigest(), "certificates": certificates}

json.dump([OPS[req["op"]](req) for req in json.load(sys.stdin)], sys.stdout)
