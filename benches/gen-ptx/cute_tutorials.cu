// archs: sm_80 sm_90
// CuTe's own tutorial GEMMs and copies, as CUTLASS 4.2 ships them (examples/cute/tutorial): the
// SM80 GEMM (cp.async pipelines, ldmatrix, HMMA through TiledMMA, predicated tails), the SM70-style
// and plain sgemm kernels, and the tiled copy; their host code instantiates the kernels.
#define main sgemm_sm80_main
#include "cute/tutorial/sgemm_sm80.cu"
#undef main
