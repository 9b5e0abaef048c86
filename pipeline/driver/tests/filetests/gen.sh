#!/usr/bin/env bash
# Regenerates the filetest PTX inputs from src/*.cu with the reference nvcc (compute_75 PTX, so
# that every target from sm_75 to sm_90 accepts it). Run from this folder.
set -euo pipefail
NV=$(bash ../../../../scripts/fetch-nvidia-tools.sh)
for cu in src/*.cu; do
  name=$(basename "$cu" .cu)
  "$NV/bin/nvcc" -ptx -arch=compute_75 -I"$NV/include" "$cu" -o "$name.ptx"
  sed -i '/^\/\/ Compiler Build ID/d;/^\/\/ Cuda compilation tools/d;/^\/\/ Based on NVVM/d' "$name.ptx"
done
