#!/bin/sh
# Regenerates the nvcc -lineinfo PTX of the -lineinfo test from kernels.cu (run in this folder;
# needs $PTXFORGE_NV). The .file directive names kernels.cu as nvcc was given it.
set -e
"$PTXFORGE_NV/bin/nvcc" -lineinfo -ptx -arch=sm_80 kernels.cu -o kernels.sm_80.ptx
# Paths on the generating machine are cut to names relative to this folder and the toolkit.
sed -i -e "s|\"$(pwd)/|\"|" -e "s|\"$PTXFORGE_NV/bin/../|\"cuda/|" kernels.sm_80.ptx
