//! The cubin writer: turns encoded kernels into a CUDA ELF file as ptxas 13.5 lays it out.
