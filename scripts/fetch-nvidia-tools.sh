#!/usr/bin/env bash
# Fetches NVIDIA's reference tools (ptxas, nvdisasm, cuobjdump, nvcc) from the Python package index
# into a cache directory and prints the folder that holds bin/ (the "$NV" of the docs).
# Usage: scripts/fetch-nvidia-tools.sh            -> prints e.g. ~/.cache/ptxforge/nvidia-13.5.37/nvidia/cu13
# Env:   PTXFORGE_NV_CACHE overrides the cache directory.
set -euo pipefail
VERSION=13.5.37
CACHE="${PTXFORGE_NV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ptxforge/nvidia-$VERSION}"
NV="$CACHE/nvidia/cu13"
if [ -x "$NV/bin/ptxas" ] && [ -x "$NV/bin/nvdisasm" ] && [ -x "$NV/bin/cuobjdump" ] && [ -f "$CACHE/.complete" ]; then
  echo "$NV"; exit 0
fi
mkdir -p "$CACHE/wheels"
for pkg in nvidia-cuda-nvcc nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump nvidia-nvvm nvidia-cuda-crt nvidia-cuda-runtime; do
  ls "$CACHE/wheels/${pkg//-/_}-$VERSION"-*.whl >/dev/null 2>&1 ||
    python3 -m pip download --no-deps -q "$pkg==$VERSION" -d "$CACHE/wheels" >&2
done
ls "$CACHE/wheels"/nvidia_cuda_cccl-*.whl >/dev/null 2>&1 ||
  python3 -m pip download --no-deps -q nvidia-cuda-cccl -d "$CACHE/wheels" >&2
for whl in "$CACHE/wheels"/*.whl; do
  python3 -m zipfile -e "$whl" "$CACHE" >&2
done
chmod +x "$NV"/bin/* "$NV"/nvvm/bin/* 2>/dev/null || true
touch "$CACHE/.complete"
echo "$NV"
