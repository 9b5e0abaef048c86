#!/usr/bin/env bash
# Builds the CUDA C sources in benches/gen-ptx/ into PTX with NVIDIA's nvcc, for the generated-PTX
# survey (benches/GENERATED_SURVEY.md): each `X.cu` names its targets on a `// archs:` line (and
# extra nvcc flags on an optional `// flags:` line) and becomes `X.sm_NN.ptx` in the cache folder.
# The CUTLASS headers (and its examples and util headers, for sources that include CuTe's tutorials)
# come from the nvidia-cutlass wheel of the Python package index, unpacked in the cache; CCCL (CUB, Thrust, libcu++) comes with nvcc. Nothing is written into the repository.
#
# Usage: scripts/gen-ptx.sh [OUT_DIR] [NAME...]   (default OUT_DIR: ~/.cache/ptxforge/gen-ptx)
#   PTXFORGE_NV: NVIDIA's tools (see scripts/fetch-nvidia-tools.sh); JOBS: parallel nvcc runs (2).
# A PTX file newer than its source is kept; a failed build leaves X.sm_NN.nvcc-error with nvcc's output.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ptxforge"
nv="${PTXFORGE_NV:-$cache/nvidia-13.5.37/nvidia/cu13}"
out="${1:-$cache/gen-ptx}"
shift || true
jobs="${JOBS:-2}"
cutlass_version=4.2.0.0
cutlass="$cache/cutlass/wheel/cutlass_library/source/include"

if [ ! -x "$nv/bin/nvcc" ]; then
  echo "skipped: no nvcc at $nv/bin/nvcc (set PTXFORGE_NV or run scripts/fetch-nvidia-tools.sh)" >&2
  exit 1
fi
if [ ! -d "$cutlass/cutlass" ]; then
  mkdir -p "$cache/cutlass"
  (cd "$cache/cutlass" &&
    python3 -m pip download --no-deps "nvidia-cutlass==$cutlass_version" -d . &&
    python3 -m zipfile -e "nvidia_cutlass-$cutlass_version-py3-none-any.whl" wheel)
fi
mkdir -p "$out"

sources=()
if [ $# -gt 0 ]; then
  for name in "$@"; do sources+=("$repo/benches/gen-ptx/${name%.cu}.cu"); done
else
  sources=("$repo"/benches/gen-ptx/*.cu)
fi

# One line per build: source, arch, flags (tab-separated).
plan() {
  for src in "${sources[@]}"; do
    archs="$(sed -n 's|^// archs: *||p' "$src" | head -1)"
    flags="$(sed -n 's|^// flags: *||p' "$src" | head -1)"
    for arch in $archs; do printf '%s\t%s\t%s\n' "$src" "$arch" "$flags"; done
  done
}

build_one() {
  local src="$1" arch="$2" flags="$3"
  local name; name="$(basename "$src" .cu)"
  local ptx="$out/$name.$arch.ptx" err="$out/$name.$arch.nvcc-error"
  if [ "$ptx" -nt "$src" ]; then return 0; fi
  local start=$SECONDS
  # shellcheck disable=SC2086
  if "$nv/bin/nvcc" -ptx -arch="$arch" -std=c++17 --expt-relaxed-constexpr -w \
      -I"$cutlass" -I"$cutlass/../tools/util/include" -I"$cutlass/../examples" $flags "$src" \
      -o "$ptx.tmp" >"$err" 2>&1; then
    mv "$ptx.tmp" "$ptx"
    rm -f "$err"
    echo "built  $name.$arch.ptx ($((SECONDS - start)) s)"
  else
    rm -f "$ptx.tmp"
    echo "FAILED $name.$arch (nvcc output in $err)"
  fi
}
running=0
while IFS=$'\t' read -r src arch flags; do
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  build_one "$src" "$arch" "$flags" &
  running=$((running + 1))
done < <(plan)
wait
