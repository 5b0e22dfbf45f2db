/* What both of chapter 8's kernels need, put before each by the host (after the configuration's
 * defines) when nvrtc compiles it. The CPU stand-in (tests/fixtures/cuda_on_host.h) defines the
 * same names its own way first; each is only defined here if it is not already. */

#ifndef KERNEL
#define KERNEL extern "C" __global__
#endif
#ifndef NEG_INFINITY
#define NEG_INFINITY (-__int_as_float(0x7f800000)) /* nvrtc includes no <math.h> */
#endif
#ifndef SHARED_TILE
#define SHARED_TILE(name) __shared__ float name[TILE_K][HEAD_DIM]
#endif
#ifndef SHARED_FLOATS
#define SHARED_FLOATS(name, count) __shared__ __align__(16) float name[count]
#endif
#ifndef SHARED_HALVES
#define SHARED_HALVES(name, count) __shared__ __align__(16) unsigned short name[count]
#endif
