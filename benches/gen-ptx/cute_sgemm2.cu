// archs: sm_75 sm_80 sm_90
// CuTe's tutorial sgemm_2 (TiledCopy and TiledMMA of plain FMA, as CUTLASS 4.2 ships it in
// examples/cute/tutorial), instantiated by its own host code.
#define main sgemm_2_main
#include "cute/tutorial/sgemm_2.cu"
#undef main
