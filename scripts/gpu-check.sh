#!/usr/bin/env bash
# Hardware check: runs every filetest kernel (pipeline/driver/tests/filetests/*.ptx) and every
# instruction kernel (pipeline/sim/tests/kernels/*.ptx) on a real GPU, ptxas's cubin and
# ptxforge's, each compiled for the GPU's own architecture, with the launches, seeds, buffers and
# ulps of the sim tests, and compares every buffer with the PTX interpreter (pipeline/gpu,
# binary ptxforge-gpu). Prints one line per kernel and a total; exits 1 if any kernel disagrees
# or fails. Without a GPU (no nvidia-smi, no driver library, no device) it prints
# `skipped: no GPU (...)` and exits 0.
#
# The launch list comes from the sim tests' own tables (pipeline/sim/tests/kernels.rs KERNELS,
# pipeline/sim/tests/filetests.rs CASES), written out by their `write_launches_for_the_gpu_check`
# tests when PTXFORGE_GPU_LAUNCHES=FILE is set: one line of ptxforge-gpu arguments per launch.
#
# Usage:
#   scripts/gpu-check.sh --prepare   (on a machine with cargo and the NVIDIA tools, e.g. this one)
#       builds ptxforge-gpu, writes the launch list and copies ptxas (gzipped) into .gpu-carry/
#       (ignored by git):  .gpu-carry/bin/ptxforge-gpu  .gpu-carry/launches.txt
#                          .gpu-carry/nv/bin/ptxas.gz
#       The tools come from $PTXFORGE_NV (default ~/.cache/ptxforge/nvidia-13.5.37/nvidia/cu13,
#       fetched by scripts/fetch-nvidia-tools.sh).
#   scripts/gpu-check.sh             (on the GPU machine, which has no network)
#       uses .gpu-carry/ when it is there (carry it: the device `run` tool's carry=[".gpu-carry"],
#       about 25 MiB), else builds with cargo and writes the list itself. PTXFORGE_NV, when set,
#       names a tools folder holding bin/ptxas (or bin/ptxas.gz) to use instead of the carried one.
#   Env: PTXFORGE_GPU_CARRY (default .gpu-carry), PTXFORGE_GPU_BIN (a built ptxforge-gpu),
#        PTXFORGE_GPU_JOBS (parallel runs, default 4),
#        PTXFORGE_GPU_TIMEOUT (seconds per kernel, default 60).
# Budget: about 150 launches; each compiles with ptxas and ptxforge, interprets, and runs twice on
# the GPU, a second or two: well within 8 minutes on one H100/H200 with 4 jobs.
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
CARRY="${PTXFORGE_GPU_CARRY:-$ROOT/.gpu-carry}"
JOBS="${PTXFORGE_GPU_JOBS:-4}"
TIMEOUT="${PTXFORGE_GPU_TIMEOUT:-60}"

write_launches() { # $1: the file to write
    rm -f "$1"
    for target in kernels filetests; do
        PTXFORGE_GPU_LAUNCHES="$1" cargo test --release -q -p ptxforge-sim --test "$target" \
            write_launches_for_the_gpu_check >/dev/null || return 1
    done
}

if [ "${1:-}" = "--prepare" ]; then
    NV="${PTXFORGE_NV:-$HOME/.cache/ptxforge/nvidia-13.5.37/nvidia/cu13}"
    mkdir -p "$CARRY/bin" "$CARRY/nv/bin" || exit 1
    cargo build --release -q -p ptxforge-gpu || exit 1
    cp target/release/ptxforge-gpu "$CARRY/bin/" && strip "$CARRY/bin/ptxforge-gpu" || exit 1
    write_launches "$CARRY/launches.txt" || exit 1
    if [ -x "$NV/bin/ptxas" ]; then
        gzip -1 -c "$NV/bin/ptxas" >"$CARRY/nv/bin/ptxas.gz" || exit 1
    else
        echo "warning: no ptxas in $NV: the GPU runs ptxforge's cubins only" >&2
    fi
    echo "prepared $CARRY ($(wc -l <"$CARRY/launches.txt") launches, $(du -sh "$CARRY" | cut -f1))"
    exit 0
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# The runner: carried, else built here.
BIN="${PTXFORGE_GPU_BIN:-$CARRY/bin/ptxforge-gpu}"
if [ ! -x "$BIN" ]; then
    cargo build --release -q -p ptxforge-gpu || exit 1
    BIN="$ROOT/target/release/ptxforge-gpu"
fi

# Is there a GPU? nvidia-smi gives the architecture; the runner says whether the driver works.
probe="$("$BIN" --probe)" || exit 1
case "$probe" in skipped:*) echo "$probe"; exit 0 ;; esac
cap="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1)"
if [ -n "$cap" ]; then
    SM="$(echo "$cap" | tr -d ' .')"
else
    SM="${probe%% *}"; SM="${SM#sm_}"
fi
echo "GPU: $probe; compiling for sm_$SM"

# ptxas: $PTXFORGE_NV, else the carried one (gunzipped here), else none (our cubins only).
PTXAS=""
for nv in "${PTXFORGE_NV:-}" "$CARRY/nv"; do
    [ -n "$nv" ] || continue
    if [ -x "$nv/bin/ptxas" ]; then PTXAS="$nv/bin/ptxas"; break; fi
    if [ -f "$nv/bin/ptxas.gz" ]; then
        gunzip -c "$nv/bin/ptxas.gz" >"$WORK/ptxas" && chmod +x "$WORK/ptxas" && PTXAS="$WORK/ptxas"
        break
    fi
done
[ -n "$PTXAS" ] || echo "warning: no ptxas found: running ptxforge's cubins only"

# The launch list: carried, else written by the sim tests here.
LAUNCHES="$CARRY/launches.txt"
if [ ! -f "$LAUNCHES" ]; then
    LAUNCHES="$WORK/launches.txt"
    write_launches "$LAUNCHES" || { echo "cannot write the launch list (cargo test failed)"; exit 1; }
fi

run_one() { # one launch line: prints `file entry: verdict`
    local line="$1" file entry verdict
    file="${line%% *}"
    entry="$(echo "$line" | sed -n 's/.*--entry \([^ ]*\).*/\1/p')"
    # shellcheck disable=SC2086
    verdict="$(timeout "$TIMEOUT" "$BIN" $line -arch "sm_$SM" ${PTXAS:+--ptxas "$PTXAS"} 2>&1 | tr '\n' ' ')"
    [ -n "$verdict" ] || verdict="error: no answer within ${TIMEOUT}s (hung or killed)"
    echo "$(basename "$file") $entry: ${verdict% }"
}
export -f run_one
export BIN SM PTXAS TIMEOUT

start=$(date +%s)
tr '\n' '\0' <"$LAUNCHES" | xargs -0 -n1 -P "$JOBS" bash -c 'run_one "$0"' | tee "$WORK/results.txt"
total=$(wc -l <"$WORK/results.txt")
agree=$(grep -c ': agree\( (ptxas cubin only: .*)\)\?$' "$WORK/results.txt")
only=$(grep -c ': agree (ptxas cubin only' "$WORK/results.txt")
skipped=$(grep -c ': skipped:' "$WORK/results.txt")
bad=$((total - agree - skipped))
echo "total: $agree of $total kernels agree on sm_$SM ($only of them ptxas's cubin only: ptxforge cannot compile them yet; $skipped skipped; $bad disagree or fail) in $(($(date +%s) - start)) s"
[ "$bad" -eq 0 ]
