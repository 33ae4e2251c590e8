#!/usr/bin/env bash
# Installs what apnsbench needs to build and run, when it is missing:
#   libcurl >= 8 with HTTP/2 (Debian 12: libcurl4-openssl-dev from bookworm-backports, 8.14.1 — the
#   bookworm 7.88.1 resets every HTTP/2 stream after a 200 and cannot reuse h2c connections),
#   libssl-dev, libjemalloc-dev, pkg-config, zlib1g-dev (the histograms' DEFLATE); with --test also the interop peers: h2load (nghttp2-client),
#   nghttpd (nghttp2-server, for scripts/bench-simulator.sh), Debian's chromium (the browser test of
#   report.html: headless screenshot and DOM dump), the Python APNs client aioapns and the
#   Python HdrHistogram package hdrhistogram, kubernetes-validate (the offline Kubernetes schemas of
#   scripts/kube-validate.sh), prometheus-client (its OpenMetrics parser, for /metrics) and cryptography
#   (the tests' independent check of ES256 signatures and the simulator's certificates) (all PyPI).
# Idempotent: does nothing (and touches no package list) when everything is there.
set -euo pipefail

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

say() { printf 'install-deps: %s\n' "$*" >&2; }

SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        say "not root and no sudo: install libcurl4-openssl-dev (>= 8), libssl-dev, libjemalloc-dev, pkg-config by hand"
    fi
fi
export DEBIAN_FRONTEND=noninteractive

curl_ok() {
    command -v curl-config >/dev/null 2>&1 || return 1
    local v; v=$(curl-config --vernum 2>/dev/null || echo 0)
    [ $((16#$v)) -ge $((16#080000)) ] || return 1
    curl-config --features 2>/dev/null | grep -qx HTTP2
}

missing=()
for pkg in libssl-dev libjemalloc-dev pkg-config zlib1g-dev; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ $want_test = 1 ]; then
    command -v h2load >/dev/null 2>&1 || missing+=(nghttp2-client)
    command -v nghttpd >/dev/null 2>&1 || missing+=(nghttp2-server)
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
    command -v python3 >/dev/null 2>&1 || missing+=(python3)
    python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
    # Go and golang.org/x/net for the Go sender the simulator's report is tested with (Tests/InteropTests/Peers).
    command -v go >/dev/null 2>&1 || missing+=(golang-go)
    [ -d /usr/share/gocode/src/golang.org/x/net/http2 ] || missing+=(golang-golang-x-net-dev)
    # PyYAML for the CI examples' structure check (scripts/check-ci-examples.py).
    python3 -c 'import yaml' >/dev/null 2>&1 || missing+=(python3-yaml)
fi

updated=0
apt_update() { [ $updated = 1 ] || { say "apt-get update"; $SUDO apt-get update -q >&2; updated=1; }; }

if ! curl_ok; then
    . /etc/os-release 2>/dev/null || true
    if [ "${VERSION_CODENAME:-}" = "bookworm" ]; then
        if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
            say "adding Debian bookworm-backports for libcurl 8"
            echo 'deb http://deb.debian.org/debian bookworm-backports main' | $SUDO tee /etc/apt/sources.list.d/bookworm-backports.list >/dev/null
        fi
        apt_update
        say "installing libcurl4-openssl-dev from bookworm-backports"
        $SUDO apt-get install -y -q -t bookworm-backports libcurl4-openssl-dev >&2
    else
        apt_update
        $SUDO apt-get install -y -q libcurl4-openssl-dev >&2
    fi
    if ! curl_ok; then
        say "libcurl >= 8 with HTTP/2 is required; found: $(curl-config --version 2>/dev/null || echo none)"
        exit 1
    fi
fi

if [ ${#missing[@]} -gt 0 ]; then
    apt_update
    say "installing ${missing[*]}"
    $SUDO apt-get install -y -q "${missing[@]}" >&2
fi

# aioapns for the interop tests (Tests/InteropTests): pip, after python3 and pip are there.
if [ $want_test = 1 ] && ! python3 -c 'import aioapns' >/dev/null 2>&1; then
    say "installing the Python package aioapns"
    # Debian's own python3 refuses pip installs outside a venv (PEP 668) unless told otherwise.
    python3 -m pip install -q aioapns >&2 2>/dev/null || python3 -m pip install -q --break-system-packages aioapns >&2
    python3 -c 'import aioapns' || { say "aioapns did not install"; exit 1; }
fi

# hdrhistogram (module hdrh) for the interop test of our encoded histograms and latency.hlog.
if [ $want_test = 1 ] && ! python3 -c 'import hdrh' >/dev/null 2>&1; then
    say "installing the Python package hdrhistogram"
    python3 -m pip install -q hdrhistogram >&2 2>/dev/null || python3 -m pip install -q --break-system-packages hdrhistogram >&2
    python3 -c 'import hdrh' || { say "hdrhistogram did not install"; exit 1; }
fi

# kubernetes-validate for scripts/kube-validate.sh, pinned: each release bundles the schemas of about a dozen
# Kubernetes versions, and 1.37.0 has the 1.30 the manifests are checked against (and 1.25 to 1.37).
if [ $want_test = 1 ] && ! python3 -c 'import kubernetes_validate' >/dev/null 2>&1; then
    say "installing the Python package kubernetes-validate"
    python3 -m pip install -q 'kubernetes-validate==1.37.0' >&2 2>/dev/null \
        || python3 -m pip install -q --break-system-packages 'kubernetes-validate==1.37.0' >&2
    python3 -c 'import kubernetes_validate' || { say "kubernetes-validate did not install"; exit 1; }
fi

# h2 for the Python sender the simulator's report is tested with (Tests/InteropTests/Peers/h2_sender.py).
if [ $want_test = 1 ] && ! python3 -c 'import h2' >/dev/null 2>&1; then
    say "installing the Python package h2"
    python3 -m pip install -q h2 >&2 2>/dev/null || python3 -m pip install -q --break-system-packages h2 >&2
    python3 -c 'import h2' || { say "h2 did not install"; exit 1; }
fi

# prometheus-client (module prometheus_client): its OpenMetrics parser reads what --metrics-listen serves.
if [ $want_test = 1 ] && ! python3 -c 'import prometheus_client' >/dev/null 2>&1; then
    say "installing the Python package prometheus-client"
    python3 -m pip install -q prometheus-client >&2 2>/dev/null || python3 -m pip install -q --break-system-packages prometheus-client >&2
    python3 -c 'import prometheus_client' || { say "prometheus-client did not install"; exit 1; }
fi

# cryptography: TestSupport's ES256Oracle (es256_oracle.py) verifies the client's ES256 signatures, signs
# tokens for the simulator to verify and reads the simulator's certificates with it.
if [ $want_test = 1 ] && ! python3 -c 'import cryptography.x509.verification' >/dev/null 2>&1; then
    say "installing the Python package cryptography"
    # (>= 42 for x509.verification; Debian 12's python3-cryptography is 38, which pip installs beside.)
    python3 -m pip install -q 'cryptography>=42' >&2 2>/dev/null ||
        python3 -m pip install -q --break-system-packages 'cryptography>=42' >&2 2>/dev/null ||
        python3 -m pip install -q --break-system-packages --ignore-installed 'cryptography>=42' >&2
    python3 -c 'import cryptography.x509.verification' || { say "cryptography did not install"; exit 1; }
fi

if ! command -v swift >/dev/null 2>&1; then
    say "no Swift toolchain on PATH: apnsbench needs Swift 6.1 or later (swift.org)"
    exit 1
fi
