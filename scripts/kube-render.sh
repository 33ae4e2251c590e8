#!/usr/bin/env bash
# Renders the Kubernetes manifests of one sharded run from deploy/kubernetes/templates/ into a folder that
# `kubectl apply --server-side -f DIR/` takes as it is (docs/distributed.md).
#
#   scripts/kube-render.sh --shards N [--out DIR] [--image IMAGE] [--profile PATH]
#                          [--target simulator|sandbox|production] [--run-id ID] [--start-delay SECONDS]
#                          [--namespace NS] [--storage-class NAME] [--storage SIZE] [--cpu CPU]
#                          [--memory SIZE] [--sim-cpu N] [--sim-config FILE] [--stream-path PATH]
#                          [--merge-wait SECONDS] [-- RUN_FLAGS...]
#
#   --shards N          shards, one pod each, all at once (an Indexed Job: completions = parallelism = N)
#   --out DIR           where to write (default deploy/kubernetes/rendered, git-ignored); the manifests an
#                       earlier render wrote there are replaced, anything else there is refused
#   --image IMAGE       the apnsbench image (deploy/kubernetes/Dockerfile; default apnsbench:latest)
#   --profile PATH      the run profile (default profiles/leave-requests.yaml); it goes into a ConfigMap with
#                       the files it names, the stream too when all of it stays under 900 KiB
#   --target T          simulator (default: the namespace's shared `apnsbench simulate`, deployed with the
#                       run), sandbox or production (real APNs, with the provider key from the Secret
#                       apnsbench-apns-key, rendered as a template under DIR/secret/)
#   --run-id ID         shared by the shards, names the Jobs and /reports/ID (default apnsbench-<UTC time>,
#                       e.g. apnsbench-20261123t100000z); lowercase letters, digits and '-', at most 40
#   --start-delay S     the --start-at barrier is the render time plus S seconds (default 60): apply before
#                       then, leaving time to schedule the pods and pull the image
#   --namespace NS      default apnsbench (not created here: kubectl create namespace NS)
#   --storage-class C   the reports volume's storage class, which must offer ReadWriteMany (default: the
#                       cluster's default class); --storage SIZE its size (default 10Gi)
#   --cpu, --memory     each shard's requests and limits, equal (default 1 and 1Gi)
#   --sim-cpu N         the simulator's cores and event-loop threads (default 2)
#   --sim-config FILE   an `apnsbench simulate --config` file for the shared simulator (latency model,
#                       faults, devices); its own ConfigMap, and a new one restarts the simulator
#   --stream-path PATH  the recorded stream's path inside the pods, instead of the ConfigMap (a large stream
#                       from an image or volume of yours)
#   --merge-wait S      how long the merge Job waits for the shards to end (default 21600, 6 h)
#   -- RUN_FLAGS        passed on to every shard's `apnsbench run` (e.g. -- --rate 4000 --duration 600s)
#
# Exit 0 when written (the files and the next commands are printed), 1 when an input file cannot be used
# (named), 64 for a bad flag or value.
set -euo pipefail
shopt -u patsub_replacement 2>/dev/null || true   # '&' in a value is a plain '&'
repo="$(cd "$(dirname "$0")/.." && pwd)"
templates="$repo/deploy/kubernetes/templates"
marker="# Rendered by scripts/kube-render.sh"

usage() { echo "kube-render.sh: $*" >&2; echo "kube-render.sh: see scripts/kube-render.sh --help" >&2; exit 64; }
fail() { echo "kube-render.sh: $*" >&2; exit 1; }

shards="" out="$repo/deploy/kubernetes/rendered" image="apnsbench:latest" profile="$repo/profiles/leave-requests.yaml"
target=simulator run_id="" start_delay=60 namespace=apnsbench storage_class="" storage=10Gi cpu=1 memory=1Gi
sim_cpu=2 sim_config="" stream_path="" merge_wait=21600
extra=()
while [ $# -gt 0 ]; do
    arg="$1"
    case "$arg" in
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --*=*) flag="${arg%%=*}"; value="${arg#*=}"; shift ;;
        --*)
            flag="$arg"
            [ $# -ge 2 ] && [[ $2 != --* ]] || usage "$flag needs a value"
            value="$2"; shift 2 ;;
        *) usage "unexpected argument '$arg' (flags only; RUN_FLAGS go after --)" ;;
    esac
    case "$flag" in
        --shards) shards="$value" ;;
        --out) out="$value" ;;
        --image) image="$value" ;;
        --profile) profile="$value" ;;
        --target) target="$value" ;;
        --run-id) run_id="$value" ;;
        --start-delay) start_delay="$value" ;;
        --namespace) namespace="$value" ;;
        --storage-class) storage_class="$value" ;;
        --storage) storage="$value" ;;
        --cpu) cpu="$value" ;;
        --memory) memory="$value" ;;
        --sim-cpu) sim_cpu="$value" ;;
        --sim-config) sim_config="$value" ;;
        --stream-path) stream_path="$value" ;;
        --merge-wait) merge_wait="$value" ;;
        *) usage "unknown flag '$flag'" ;;
    esac
done

# --- the values ---------------------------------------------------------------------------------------------
[ -n "$shards" ] || usage "--shards N is required"
[[ $shards =~ ^[1-9][0-9]*$ ]] || usage "--shards must be a positive whole number, found '$shards'"
[ "${#shards}" -le 4 ] && [ "$shards" -le 1000 ] || usage "--shards $shards: at most 1000"
case "$target" in
    simulator|sandbox|production) ;;
    *) usage "--target must be simulator, sandbox or production, found '$target' (an https:// target: run apnsbench yourself)" ;;
esac
[[ $start_delay =~ ^[0-9]+$ ]] && [ "${#start_delay}" -le 6 ] || usage "--start-delay must be whole seconds (at most 999999), found '$start_delay'"
[[ $merge_wait =~ ^[0-9]+$ ]] && [ "${#merge_wait}" -le 7 ] && [ "$merge_wait" -ge 60 ] \
    || usage "--merge-wait must be whole seconds, 60 to 9999999, found '$merge_wait'"
if [ -z "$run_id" ]; then run_id="apnsbench-$(date -u +%Y%m%dt%H%M%Sz)"; fi
[[ $run_id =~ ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ ]] \
    || usage "--run-id '$run_id' must be lowercase letters, digits and '-', starting and ending with a letter or digit (it names Jobs)"
[ "${#run_id}" -le 40 ] || usage "--run-id '$run_id' is ${#run_id} characters; at most 40 (Job names and pod host names are capped at 63)"
[[ $namespace =~ ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ ]] && [ "${#namespace}" -le 63 ] \
    || usage "--namespace '$namespace' is not a Kubernetes namespace name (lowercase letters, digits, '-', at most 63)"
[ -z "$storage_class" ] || { [[ $storage_class =~ ^[a-z0-9]([-.a-z0-9]*[a-z0-9])?$ ]] && [ "${#storage_class}" -le 253 ]; } \
    || usage "--storage-class '$storage_class' is not a storage class name"
quantity='^[0-9]+(\.[0-9]+)?(m|k|Ki|M|Mi|G|Gi|T|Ti)?$'
[[ $storage =~ $quantity ]] || usage "--storage must be a quantity like 10Gi, found '$storage'"
[[ $cpu =~ $quantity ]] || usage "--cpu must be a quantity like 1, 1.5 or 500m, found '$cpu'"
[[ $memory =~ $quantity ]] || usage "--memory must be a quantity like 1Gi or 512Mi, found '$memory'"
[[ $sim_cpu =~ ^[1-9][0-9]?$ ]] && [ "$sim_cpu" -le 64 ] || usage "--sim-cpu must be a whole number of cores, 1 to 64, found '$sim_cpu'"
[[ $image =~ ^[^[:space:]\"\'\\]+$ ]] || usage "--image '$image' is not an image reference"
if [ -n "$sim_config" ] && [ "$target" != simulator ]; then usage "--sim-config goes with --target simulator"; fi
if [ -n "$stream_path" ]; then
    [[ $stream_path == /* ]] || usage "--stream-path is a path inside the pods and must be absolute, found '$stream_path'"
    [[ $stream_path =~ ^[^[:space:]\"\'\\#]+$ ]] || usage "--stream-path '$stream_path': no spaces, quotes or '#'"
fi
for a in ${extra[@]+"${extra[@]}"}; do
    case "$a" in *$'\n'*) usage "a RUN_FLAG holds a line break" ;; esac
done
[ -f "$profile" ] && [ -r "$profile" ] || fail "the profile $profile cannot be read"
if [ -n "$sim_config" ]; then [ -f "$sim_config" ] && [ -r "$sim_config" ] || fail "--sim-config $sim_config cannot be read"; fi

# --- the profile and the files it names -----------------------------------------------------------------------
profile_dir="$(cd "$(dirname "$profile")" && pwd)"
profile_abs="$profile_dir/$(basename "$profile")"
if grep -q '^simulator:' "$profile_abs"; then
    fail "$profile has a 'simulator:' section, which configures the embedded simulator; in the cluster a run targets the shared simulator (or" \
        "APNs), and apnsbench refuses the section there. Move the section's contents (unindented, without the 'simulator:' line) into a file and" \
        "pass --sim-config FILE."
fi

# A file that goes into the ConfigMap: UTF-8 text without control characters other than tab and line feed
# (what a YAML block scalar carries unchanged).
carriable() {
    iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || fail "$1 is not UTF-8 text; it cannot go into a ConfigMap (--stream-path for a stream)"
    if LC_ALL=C grep -qP '[\x00-\x08\x0B-\x1F\x7F]' "$1"; then
        fail "$1 holds control characters (carriage returns?); it cannot go into a ConfigMap as it is"
    fi
}

# The value of a top-level `key: value` line: unquoted (up to a ' #' comment) or quoted.
value_of() {
    local v="$1"
    if [[ $v == \"* ]]; then v="${v#\"}"; v="${v%%\"*}"
    elif [[ $v == \'* ]]; then v="${v#\'}"; v="${v%%\'*}"
    else v="${v%%[[:space:]]#*}"; v="${v%"${v##*[![:space:]]}"}"
    fi
    printf '%s' "$v"
}

declare -A cm_file=()   # ConfigMap key -> local file
cm_keys=()
stream_key="" stream_local="" stream_in_pod=""
rendered_profile="$(mktemp)"
trap 'rm -f "$rendered_profile"' EXIT
while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line =~ ^(stream|template|dead_tokens):[[:space:]]*(.*)$ ]]; then
        key="${BASH_REMATCH[1]}"
        written="$(value_of "${BASH_REMATCH[2]}")"
        [ -n "$written" ] || fail "$profile: '$key' has no value"
        case "$written" in /*) local_path="$written" ;; *) local_path="$profile_dir/$written" ;; esac
        [ -f "$local_path" ] && [ -r "$local_path" ] || fail "$profile names $key '$written', which cannot be read ($local_path)"
        name="$(basename "$local_path")"
        name="${name//[^-._a-zA-Z0-9]/_}"
        if [ "$name" = profile.yaml ] || [ -n "${cm_file[$name]+x}" ]; then name="$key-$name"; fi
        if [ "$key" = stream ]; then
            stream_key="$name" stream_local="$local_path"
            printf '%s: @STREAM@   # kube-render: was %s\n' "$key" "$written" >> "$rendered_profile"
            continue
        fi
        carriable "$local_path"
        cm_file[$name]="$local_path"; cm_keys+=("$name")
        printf '%s: %s   # kube-render: was %s\n' "$key" "$name" "$written" >> "$rendered_profile"
    else
        printf '%s\n' "$line" >> "$rendered_profile"
    fi
done < "$profile_abs"
[ -n "$stream_key" ] || fail "$profile has no 'stream:'"

bytes() { wc -c < "$1" | tr -d ' '; }
budget=$(( 900 * 1024 ))
others=$(bytes "$rendered_profile")
for k in ${cm_keys[@]+"${cm_keys[@]}"}; do others=$(( others + $(bytes "${cm_file[$k]}") )); done
stream_bytes=$(bytes "$stream_local")
stream_note=""
if [ -n "$stream_path" ]; then
    stream_in_pod="$stream_path"; stream_note="read from $stream_path (--stream-path)"
elif [ $(( others + stream_bytes )) -le "$budget" ]; then
    carriable "$stream_local"
    cm_file[$stream_key]="$stream_local"; cm_keys+=("$stream_key")
    stream_in_pod="$stream_key"; stream_note="in the ConfigMap ($stream_bytes bytes)"
elif [[ $stream_local == "$repo/profiles/"* ]]; then
    stream_in_pod="/opt/apnsbench/profiles/${stream_local#"$repo/profiles/"}"
    stream_note="$stream_bytes bytes, over the ConfigMap's budget: read from the image, $stream_in_pod"
else
    fail "the stream $stream_local is $stream_bytes bytes, too large for a ConfigMap (900 KiB with the profile), and not one of the image's" \
        "profiles/: put it in an image or volume the shards can read and pass --stream-path PATH_IN_POD"
fi
awk -v p="$stream_in_pod" '{ i = index($0, "@STREAM@"); if (i) $0 = substr($0, 1, i - 1) p substr($0, i + 8); print }' \
    "$rendered_profile" > "$rendered_profile.s" && mv "$rendered_profile.s" "$rendered_profile"
carriable "$rendered_profile"
cm_file[profile.yaml]="$rendered_profile"; cm_keys=(profile.yaml ${cm_keys[@]+"${cm_keys[@]}"})
cm_bytes=0
for k in "${cm_keys[@]}"; do cm_bytes=$(( cm_bytes + $(bytes "${cm_file[$k]}") )); done

# --- writing ---------------------------------------------------------------------------------------------------
start_epoch=$(( $(date -u +%s) + start_delay ))
start_at="$(date -u -d "@$start_epoch" +%Y-%m-%dT%H:%M:%SZ)"
case "$target" in
    simulator) tags=(simulator) ;;
    *) tags=(apns) ;;
esac
[ -n "$storage_class" ] && tags+=(storage_class)
[ -n "$sim_config" ] && tags+=(sim_config)
sim_sha=none
[ -n "$sim_config" ] && sim_sha="$(sha256sum < "$sim_config" | cut -d' ' -f1)"
run_extra=""
if [ ${#extra[@]} -gt 0 ]; then run_extra="$(printf '%q ' "${extra[@]}")"; run_extra="${run_extra% }"; fi

declare -A vals=(
    [NAMESPACE]="$namespace" [RUN_ID]="$run_id" [SHARDS]="$shards" [START_AT]="$start_at" [IMAGE]="$image"
    [TARGET]="$target" [CPU]="$cpu" [MEMORY]="$memory" [STORAGE]="$storage" [STORAGE_CLASS]="$storage_class"
    [SIM_CPU]="$sim_cpu" [SIM_CONFIG_SHA256]="$sim_sha" [RUN_EXTRA_ARGS]="$run_extra"
    [MERGE_WAIT]="$merge_wait" [MERGE_DEADLINE]="$(( merge_wait + 900 ))" [CONFIGMAP_BYTES]="$cm_bytes"
)
known_tags=" simulator apns storage_class sim_config "

# A template to stdout: `#@if:TAG` ... `#@end` lines keep what is between them only when TAG is on, a line
# ending in `#@only:TAG` is kept (without the tag) only when TAG is on, and {{NAME}} becomes its value.
render() {
    local file="$templates/$1" line tag name n=0 skip=0 depth=0
    local -A on=()
    for tag in "${tags[@]}"; do on[$tag]=1; done
    while IFS= read -r line || [ -n "$line" ]; do
        n=$(( n + 1 ))
        if [[ $line =~ ^[[:space:]]*#@if:([a-z_]+)[[:space:]]*$ ]]; then
            tag="${BASH_REMATCH[1]}"
            [[ $known_tags == *" $tag "* ]] || fail "$file:$n: unknown tag '$tag'"
            [ "$depth" = 0 ] || fail "$file:$n: #@if blocks do not nest"
            depth=1; [ -n "${on[$tag]+x}" ] || skip=1
            continue
        fi
        if [[ $line =~ ^[[:space:]]*#@end[[:space:]]*$ ]]; then
            [ "$depth" = 1 ] || fail "$file:$n: #@end without #@if"
            depth=0 skip=0; continue
        fi
        [ "$skip" = 0 ] || continue
        if [[ $line =~ ^(.*[^[:space:]])[[:space:]]+#@only:([a-z_]+)$ ]]; then
            tag="${BASH_REMATCH[2]}"
            [[ $known_tags == *" $tag "* ]] || fail "$file:$n: unknown tag '$tag'"
            [ -n "${on[$tag]+x}" ] || continue
            line="${BASH_REMATCH[1]}"
        fi
        for name in "${!vals[@]}"; do line="${line//"{{$name}}"/"${vals[$name]}"}"; done
        [[ $line != *"{{"* ]] || fail "$file:$n: a placeholder without a value: $line"
        printf '%s\n' "$line"
    done < "$file"
    [ "$depth" = 0 ] || fail "$file: #@if without #@end"
}

# One ConfigMap data entry: a literal block scalar, indented 4, with an explicit indentation indicator (a
# first line may start with spaces) and the chomping that keeps the file's own ending.
data_entry() {
    local key="$1" file="$2" size last chomp
    size=$(bytes "$file")
    if [ "$size" = 0 ]; then printf '  %s: ""\n' "$key"; return; fi
    last="$(tail -c 1 "$file" | od -An -c | tr -d ' ')"
    if [ "$last" != '\n' ]; then chomp=-
    elif [ "$size" -ge 2 ] && [ "$(tail -c 2 "$file" | od -An -c | tr -d ' ')" = '\n\n' ]; then chomp=+
    else chomp=""
    fi
    printf '  %s: |2%s\n' "$key" "$chomp"
    sed 's/^/    /' "$file"
    [ "$chomp" != - ] || printf '\n'
}

mkdir -p "$out" || fail "cannot make $out"
out="$(cd "$out" && pwd)"
shopt -s nullglob
for f in "$out"/*.yaml "$out"/*.yml "$out"/*.json "$out"/secret/*.yaml; do
    head -n 1 "$f" | grep -qF "$marker" || fail "$f was not written by kube-render.sh; render into another --out (it would be applied with the run)"
done
rm -f "$out"/*.yaml "$out"/secret/*.yaml
shopt -u nullglob

header() {
    printf '%s for run %s (%s shards, target %s, start at %s)\n' "$marker" "$run_id" "$shards" "$target" "$start_at"
    printf '# from deploy/kubernetes/templates/%s: change the template, not this file.\n' "$1"
}
written=()
emit() { written+=("$1"); }

header pvc.yaml > "$out/00-reports-pvc.yaml"; render pvc.yaml >> "$out/00-reports-pvc.yaml"; emit 00-reports-pvc.yaml
header reports-reader.yaml > "$out/10-reports-reader.yaml"; render reports-reader.yaml >> "$out/10-reports-reader.yaml"; emit 10-reports-reader.yaml
if [ "$target" = simulator ]; then
    f="$out/20-simulator.yaml"
    header simulator.yaml > "$f"
    if [ -n "$sim_config" ]; then
        carriable "$sim_config"
        {
            printf '# The shared simulator'"'"'s configuration (--sim-config %s), read as apnsbench simulate --config.\n' "$(basename "$sim_config")"
            printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: apnsbench-simulator-config\n  namespace: %s\n' "$namespace"
            printf '  labels:\n    app.kubernetes.io/name: apnsbench\n    app.kubernetes.io/component: simulator\ndata:\n'
            data_entry simulator.yaml "$sim_config"
            printf -- '---\n'
        } >> "$f"
    fi
    render simulator.yaml >> "$f"; emit 20-simulator.yaml
fi
f="$out/30-profile-configmap.yaml"
{
    header profile-configmap.yaml
    render profile-configmap.yaml | sed '/^data:$/,$d'
    sums=""
    for k in "${cm_keys[@]}"; do sums+="$k=$(sha256sum < "${cm_file[$k]}" | cut -d' ' -f1) "; done
    printf '  annotations:\n    # sha256 of each data entry as rendered: scripts/kube-validate.sh checks the YAML gives these bytes back.\n'
    printf '    apnsbench/data-sha256: "%s"\n' "${sums% }"
    printf 'data:\n'
    for k in "${cm_keys[@]}"; do data_entry "$k" "${cm_file[$k]}"; done
} > "$f"
emit 30-profile-configmap.yaml
header shards-job.yaml > "$out/40-shards-job.yaml"; render shards-job.yaml >> "$out/40-shards-job.yaml"; emit 40-shards-job.yaml
header merge-job.yaml > "$out/50-merge-job.yaml"; render merge-job.yaml >> "$out/50-merge-job.yaml"; emit 50-merge-job.yaml
if [ "$target" != simulator ]; then
    mkdir -p "$out/secret"
    header apns-key-secret.yaml > "$out/secret/apns-key-secret.yaml"
    render apns-key-secret.yaml >> "$out/secret/apns-key-secret.yaml"; emit secret/apns-key-secret.yaml
fi

# --- what was written, and what next -----------------------------------------------------------------------
shown="$out"
[[ $out == "$repo/"* ]] && shown="${out#"$repo/"}"
echo "kube-render.sh: run $run_id: $shards shards against $target, start at $start_at (render time + ${start_delay} s)"
echo "profile $(basename "$profile") and $(( ${#cm_keys[@]} - 1 )) file(s) in ConfigMap $run_id-profile ($cm_bytes bytes); the stream $stream_note"
echo "wrote:"
for w in "${written[@]}"; do printf '  %s/%s\n' "$shown" "$w"; done
echo "next:"
echo "  kubectl create namespace $namespace                  # once"
if [ "$target" != simulator ]; then
    echo "  kubectl -n $namespace create secret generic apnsbench-apns-key --from-file=AuthKey.p8=PATH/AuthKey_KEYID.p8 \\"
    echo "      --from-literal=key-id=KEYID --from-literal=team-id=TEAMID      # once; or fill in $shown/secret/apns-key-secret.yaml"
fi
echo "  kubectl apply --server-side -f $shown/       # before $start_at"
echo "  kubectl -n $namespace wait --for=condition=complete job/$run_id-merge --timeout=$(( start_delay + merge_wait ))s"
echo "  kubectl -n $namespace logs job/$run_id-merge -c merge             # the merged summary"
echo "  kubectl -n $namespace exec deploy/apnsbench-reports -- tar -C /reports -cf - $run_id | tar -xf - -C reports/"
if [ "$target" = production ]; then
    echo "note: production reaches real users' devices; apnsbench refuses more than 100 pushes/s there unless the RUN_FLAGS say --allow-production-load" >&2
fi
