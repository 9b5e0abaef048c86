// archs: sm_75 sm_80 sm_90
// CuTe's tutorial tiled copies (vectorised TiledCopy, with and without predication, as CUTLASS 4.2
// ships them in examples/cute/tutorial), instantiated by their own host code.
#define main tiled_copy_main
#include "cute/tutorial/tiled_copy.cu"
#undef main
#define main tiled_copy_if_main
#include "cute/tutorial/tiled_copy_if.cu"
#undef main
