#!/bin/sh
# Regenerates the kept PTX from the LLVM IR kernels beside it with LLVM's own NVPTX back end
# (llc 14, the code generator clang's CUDA mode uses), for each target the suite covers.
# Usage: generate.sh [LLC]   (default: llc on PATH)
set -e
cd "$(dirname "$0")"
LLC=${1:-llc}
for ll in *.ll; do
  for sm in sm_75 sm_80; do
    "$LLC" -O3 -march=nvptx64 -mcpu=$sm -mattr=+ptx70 "$ll" -o "${ll%.ll}.$sm.ptx"
  done
done
