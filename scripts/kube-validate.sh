#!/usr/bin/env bash
# Validates the Kubernetes manifests of a sharded run, offline (no cluster):
#
#   scripts/kube-validate.sh [DIR]
#
# Without DIR it renders two runs of 4 shards into a temporary folder with scripts/kube-render.sh (the
# shared simulator with --sim-config profiles/ci-simulator.yaml, and sandbox with order-changes and its
# Secret template) and checks both; with DIR it checks what is there (*.yaml and secret/*.yaml).
#
#   1. Every manifest against the Kubernetes API schemas, strictly (an unknown or misspelt field is an
#      error), with the PyPI package kubernetes-validate, for Kubernetes $KUBE_VERSIONS (default 1.30.0,
#      the oldest we claim, and 1.37.0, the newest the pinned package bundles).
#   2. What the schemas cannot see: the shards are an Indexed Job with completions = parallelism = N, no
#      retry (backoffLimit 0, restartPolicy Never), `apnsbench run --shards N` with its metrics on the
#      port named `metrics`; the merge Job waits for the same N; every ConfigMap entry gives back the bytes
#      that were rendered (apnsbench/data-sha256); what the pods mount exists in the set (the Secret
#      apart); and a Secret holds placeholders, never a key. And deploy/kubernetes/grafana-dashboard.json
#      is JSON whose queries use only the series apnsbench serves, narrowed by $run_id and $shard.
#   3. Without DIR, that the check can fail: a copy with one field misspelt must be refused.
#
# Exit 0 when everything holds, 1 when something does not (named), 64 for a bad argument.
set -euo pipefail
cd "$(dirname "$0")/.."
KUBE_VERSIONS="${KUBE_VERSIONS:-1.30.0 1.37.0}"

case "${1:-}" in
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "kube-validate.sh: unknown flag '$1' (see --help)" >&2; exit 64 ;;
esac
[ $# -le 1 ] || { echo "kube-validate.sh: one DIR at most (see --help)" >&2; exit 64; }

# Run as `python3 -m kubernetes_validate`: the interpreter pip installed it for, whatever is on PATH.
validate() { python3 -m kubernetes_validate "$@"; }
if ! python3 -c 'import kubernetes_validate, yaml' >/dev/null 2>&1; then
    echo "kube-validate.sh: installing the Python package kubernetes-validate" >&2
    # Pinned: a release bundles the schemas of about a dozen Kubernetes versions; 1.37.0 has 1.25 to 1.37.
    python3 -m pip install -q 'kubernetes-validate==1.37.0' >&2 2>/dev/null \
        || python3 -m pip install -q --break-system-packages 'kubernetes-validate==1.37.0' >&2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
dirs=()
if [ $# -eq 1 ]; then
    [ -d "$1" ] || { echo "kube-validate.sh: $1 is not a folder" >&2; exit 64; }
    dirs=("$1")
else
    scripts/kube-render.sh --shards 4 --out "$tmp/simulator" --run-id validate-simulator \
        --sim-config profiles/ci-simulator.yaml --storage-class nfs-client >/dev/null
    scripts/kube-render.sh --shards 4 --out "$tmp/sandbox" --run-id validate-sandbox --target sandbox \
        --profile profiles/order-changes.yaml -- --rate 2000 --duration 300s >/dev/null
    dirs=("$tmp/simulator" "$tmp/sandbox")
fi

files=()
for d in "${dirs[@]}"; do
    shopt -s nullglob
    found=("$d"/*.yaml "$d"/*.yml "$d"/secret/*.yaml)
    shopt -u nullglob
    [ ${#found[@]} -gt 0 ] || { echo "kube-validate.sh: no manifests in $d" >&2; exit 1; }
    files+=("${found[@]}")
done

# 1. The schemas.
status=0
for v in $KUBE_VERSIONS; do
    validate --kubernetes-version "$v" --strict --quiet "${files[@]}" || status=1
done

# 2. The run's own rules, per folder.
for d in "${dirs[@]}"; do
    python3 - "$d" <<'PY' || status=1
import glob, hashlib, os, re, sys, yaml

d = sys.argv[1]
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
docs = []
for path in sorted(glob.glob(os.path.join(d, "*.y*ml")) + glob.glob(os.path.join(d, "secret", "*.yaml"))):
    with open(path, encoding="utf-8") as f:
        docs += [(os.path.relpath(path, d), doc) for doc in yaml.load_all(f, Loader=Loader) if doc]
errors = []
def check(cond, what):
    if not cond:
        errors.append(what)
def by_kind(kind):
    return [(p, doc) for p, doc in docs if doc.get("kind") == kind]

namespaces = {doc["metadata"].get("namespace") for _, doc in docs}
check(len(namespaces) == 1 and None not in namespaces, f"one namespace for every object, found {namespaces}")
names = {(doc["kind"], doc["metadata"]["name"]) for _, doc in docs}

jobs = {doc["metadata"]["labels"].get("app.kubernetes.io/component"): (p, doc) for p, doc in by_kind("Job")}
check(set(jobs) == {"shard", "merge"}, f"one shards Job and one merge Job, found {sorted(jobs)}")
if set(jobs) == {"shard", "merge"}:
    p, job = jobs["shard"]
    spec, pod = job["spec"], job["spec"]["template"]["spec"]
    n = spec.get("completions")
    check(spec.get("completionMode") == "Indexed", f"{p}: completionMode Indexed")
    check(isinstance(n, int) and n >= 1 and spec.get("parallelism") == n, f"{p}: completions = parallelism = N")
    check(spec.get("backoffLimit") == 0 and "backoffLimitPerIndex" not in spec, f"{p}: backoffLimit 0 (a retried shard sends twice)")
    check(pod.get("restartPolicy") == "Never", f"{p}: restartPolicy Never")
    shard = pod["containers"][0]
    env = {e["name"]: e.get("value") for e in shard.get("env", [])}
    script = shard["args"][0]
    check(env.get("SHARDS") == str(n), f"{p}: SHARDS={env.get('SHARDS')} but completions {n}")
    check(re.search(r"apnsbench run /config/profile\.yaml --shards \"\$\{SHARDS\}\" "
                    r"--run-id \"\$\{RUN_ID\}\" --start-at \"\$\{START_AT\}\"", script) is not None,
          f"{p}: the shard runs apnsbench run /config/profile.yaml --shards --run-id --start-at")
    check("--metrics-listen 0.0.0.0:9464" in script, f"{p}: --metrics-listen 0.0.0.0:9464")
    check(re.search(r"\brc=99\b|\[ \"\$rc\" = 99 \]", script) is None, f"{p}: a shard's exit code passes through (no 99 of its own: the SLO is the merge's)")
    check(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", env.get("START_AT") or "") is not None, f"{p}: START_AT is ISO-8601 UTC")
    ports = {port.get("name"): port["containerPort"] for port in shard.get("ports", [])}
    check(ports.get("metrics") == 9464, f"{p}: a container port named metrics, 9464")
    ann = job["spec"]["template"]["metadata"].get("annotations", {})
    check(ann.get("prometheus.io/scrape") == "true" and ann.get("prometheus.io/port") == "9464", f"{p}: prometheus scrape annotations")
    res = shard.get("resources", {})
    check(res.get("requests") and res.get("limits"), f"{p}: resource requests and limits")
    simulator = "--target https://apnsbench-simulator:2197" in script
    check(simulator == any(c["name"] == "wait-for-simulator" for c in pod.get("initContainers", [])),
          f"{p}: an initContainer waits for the simulator exactly when the simulator is the target")
    check(simulator == (("Deployment", "apnsbench-simulator") in names and ("Service", "apnsbench-simulator") in names),
          f"{p}: the simulator's Deployment and Service come with --target simulator, and only then")
    mp, merge = jobs["merge"]
    menv = {e["name"]: e.get("value") for e in merge["spec"]["template"]["spec"]["initContainers"][0].get("env", [])}
    check(menv.get("SHARDS") == str(n), f"{mp}: waits for {menv.get('SHARDS')} shards, the run has {n}")
    check(menv.get("RUN_ID") == env.get("RUN_ID"), f"{mp}: the same run id as the shards")
    check("apnsbench merge \"/reports/${RUN_ID}\" --out \"/reports/${RUN_ID}/merged\"" in merge["spec"]["template"]["spec"]["containers"][0]["args"][0],
          f"{mp}: apnsbench merge /reports/RUN_ID --out /reports/RUN_ID/merged")
    for jp, j in (jobs["shard"], jobs["merge"]):
        for vol in j["spec"]["template"]["spec"].get("volumes", []):
            if "configMap" in vol:
                check(("ConfigMap", vol["configMap"]["name"]) in names, f"{jp}: ConfigMap {vol['configMap']['name']} is in the set")
            if "persistentVolumeClaim" in vol:
                check(("PersistentVolumeClaim", vol["persistentVolumeClaim"]["claimName"]) in names, f"{jp}: the claim is in the set")

for p, cm in by_kind("ConfigMap"):
    sums = cm["metadata"].get("annotations", {}).get("apnsbench/data-sha256")
    if sums is None:
        continue
    want = dict(item.split("=", 1) for item in sums.split())
    data = cm.get("data", {})
    check(set(want) == set(data), f"{p}: data keys {sorted(data)} are the rendered {sorted(want)}")
    for key, value in data.items():
        check(hashlib.sha256(value.encode()).hexdigest() == want.get(key), f"{p}: {key} does not give back the rendered bytes")
    if "profile.yaml" in data:
        profile = yaml.load(data["profile.yaml"], Loader=Loader)
        for key in ("stream", "template", "dead_tokens"):
            if key in profile:
                check(profile[key].startswith("/") or profile[key] in data, f"{p}: the profile's {key} {profile[key]} is neither in the ConfigMap nor absolute")

for p, secret in by_kind("Secret"):
    check(p.startswith("secret" + os.sep), f"{p}: a Secret only under secret/, which kubectl apply -f DIR/ leaves alone")
    for key, value in (secret.get("stringData") or {}).items():
        check("REPLACE-ME" in value and "PRIVATE KEY" not in value, f"{p}: {key} must be a placeholder")
    check(not secret.get("data"), f"{p}: no data, placeholders only")

for e in errors:
    print(f"kube-validate.sh: {os.path.basename(os.path.normpath(d))}: {e}", file=sys.stderr)
sys.exit(1 if errors else 0)
PY
done

# The Grafana dashboard: JSON, the two variables, and only the series --metrics-listen serves, each query
# narrowed to the chosen run and shards.
python3 - deploy/kubernetes/grafana-dashboard.json <<'PY' || status=1
import json, re, sys
path = sys.argv[1]
try:
    dash = json.load(open(path, encoding="utf-8"))
except ValueError as e:
    sys.exit(f"kube-validate.sh: {path} is not JSON: {e}")
served = {"apnsbench_pushes_total", "apnsbench_response_time_seconds_bucket", "apnsbench_in_flight",
          "apnsbench_connections", "apnsbench_provider_token_signings_total"}
errors = []
variables = {v["name"] for v in dash.get("templating", {}).get("list", [])}
if not {"run_id", "shard"} <= variables:
    errors.append(f"template variables run_id and shard, found {sorted(variables)}")
for panel in dash.get("panels", []):
    for t in panel.get("targets", []):
        expr = t.get("expr", "")
        for name in set(re.findall(r"\b(apnsbench_[a-z_]+)", expr)) - served:
            errors.append(f"panel '{panel['title']}': {name} is not a series apnsbench serves")
        for sel in re.findall(r"apnsbench_[a-z_]+\{([^}]*)\}", expr):
            if 'run_id=~"$run_id"' not in sel or 'shard=~"$shard"' not in sel:
                errors.append(f"panel '{panel['title']}': {{{sel}}} does not select $run_id and $shard")
        if "apnsbench_" in expr and not re.search(r"apnsbench_[a-z_]+\{", expr):
            errors.append(f"panel '{panel['title']}': a series without a selector")
for e in errors:
    print(f"kube-validate.sh: grafana-dashboard.json: {e}", file=sys.stderr)
sys.exit(1 if errors else 0)
PY

# 3. The check can fail.
if [ $# -eq 0 ] && [ "$status" = 0 ]; then
    mkdir -p "$tmp/broken"
    cp "$tmp/simulator"/*.yaml "$tmp/broken/"
    sed -i 's/^  parallelism:/  paralelism:/' "$tmp/broken/40-shards-job.yaml"
    if validate --kubernetes-version "${KUBE_VERSIONS%% *}" --strict --quiet "$tmp/broken/40-shards-job.yaml" >/dev/null 2>&1; then
        echo "kube-validate.sh: the validator accepted a Job with 'paralelism'; it checks nothing" >&2
        status=1
    fi
fi

if [ "$status" = 0 ]; then
    echo "kube-validate.sh: ${#files[@]} manifest files valid (Kubernetes ${KUBE_VERSIONS// /, }, strict) and consistent"
else
    echo "kube-validate.sh: failed (above)" >&2
fi
exit "$status"
