/* Chapter 8's tiled attention on the tensor cores in float32: the third version.
 *
 * The tensor cores multiply TF32 numbers (float32's 8-bit exponent, 10 stored mantissa bits);
 * one TF32 product has about 3 correct decimal digits, too few for a float32 result. Each float32
 * x is therefore split into two TF32 numbers, big = tf32(x) and small = tf32(x - big), and each
 * product a b is taken as big_a small_b + small_a big_b + big_a big_b: three mma.sync m16n8k8
 * instructions, their sums added up in float32 outside the tensor cores; small_a small_b (about
 * 2^-22 of the product) is left out. This is 3xTF32 (Ootomo and Yokota 2022; CUTLASS calls it so): float32
 * accuracy at three times the tensor work, which the tensor cores can afford.
 *
 * The rest is the tensor-core kernel's scheme (attention_mma.cu): TILE_Q = 128 queries a block,
 * eight warps of 16 rows, the query rows' fragments (split) in registers, keys and values in
 * shared memory a tile at a time, the online softmax on the scores where they were computed.
 * The probabilities P feed the second product without moving: a result block holds, in lane
 * 4 g + t, keys 2t and 2t + 1 of rows g and g + 8, and the m16n8k8 A operand wants columns t and
 * t + 4 there; the sum over keys does not depend on their order, so A's column t is taken to be
 * key 2t and column t + 4 key 2t + 1, and V's rows are read in the same order.
 *
 * Fragments of m16n8k8 TF32 (PTX ISA): A (16 x 8): a0 (g, t), a1 (g + 8, t), a2 (g, t + 4),
 * a3 (g + 8, t + 4); B (8 x 8): b0 (t, g), b1 (t + 4, g); the result as for m16n8k16.
 *
 * Compiled at run time by nvrtc; the host puts HEAD_DIM (64 or 128), TILE_K (64 or 32) and
 * TILE_Q (128), then common.cuh and warp_softmax.cuh, before this source. q, k, v, out:
 * (heads, n, HEAD_DIM) row-major float32. Grid: (ceil(n / 128), heads); block: 256 threads.
 * Compute capability 8.0 or newer. */

#define TF32_THREADS (TILE_Q / 16 * 32)
/* rows padded by 4 floats: the fragments' reads (8 rows by 4 columns, or 4 rows by 8 columns
   two apart) then fall in 32 different banks */
#define ROW_STRIDE (HEAD_DIM + 4)

#ifndef ON_HOST
static __device__ __forceinline__ unsigned to_tf32(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}

/* c += a b for one 16 x 8 block of TF32 operands, summed in float32 */
static __device__ __forceinline__ void mma_1688(float *c, const unsigned *a, const unsigned *b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

#endif

/* x as big + small, both TF32 */
static __device__ __forceinline__ void split(float x, unsigned *big, unsigned *small)
{
    *big = to_tf32(x);
    *small = to_tf32(x - __uint_as_float(*big));
}

/* c += a b to float32 accuracy from the split operands: three TF32 products. The tensor cores
   round their sums toward zero, an error that would pile up over the many blocks added into c;
   so each block's products start from zero on the tensor cores (the two small terms together,
   the main term alone) and are added to c in float32, rounding to nearest (Ootomo and Yokota
   2022) */
static __device__ __forceinline__ void mma_3xtf32(float *c, const unsigned *a_big,
                                                  const unsigned *a_small, const unsigned *b_big,
                                                  const unsigned *b_small)
{
    float main[4] = {0.0f, 0.0f, 0.0f, 0.0f}, fix[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    mma_1688(fix, a_big, b_small);
    mma_1688(fix, a_small, b_big);
    mma_1688(main, a_big, b_big);
    #pragma unroll
    for (int x = 0; x < 4; x++) c[x] += main[x] + fix[x];
}

KERNEL void tiled_attention_tf32(const float *q, const float *k, const float *v, float *out,
                                 int n, int causal, float scale_log2)
{
    SHARED_FLOATS(k_tile, TILE_K * ROW_STRIDE); /* [key][dim] */
    SHARED_FLOATS(v_tile, TILE_K * ROW_STRIDE); /* [key][dim] */
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int g = lane / 4, t = lane % 4;
    const size_t head = (size_t)blockIdx.y * n * HEAD_DIM;
    const int q0 = blockIdx.x * TILE_Q;
    const int rows[2] = {q0 + warp * 16 + g, q0 + warp * 16 + g + 8}; /* this lane's two rows */

    /* the warp's 16 query rows as split A fragments, one per 8 dims */
    unsigned qa_big[HEAD_DIM / 8][4], qa_small[HEAD_DIM / 8][4];
    #pragma unroll
    for (int s = 0; s < HEAD_DIM / 8; s++) {
        #pragma unroll
        for (int x = 0; x < 4; x++) {
            const int row = rows[x % 2], col = 8 * s + t + 4 * (x / 2);
            const float value = row < n ? q[head + (size_t)row * HEAD_DIM + col] : 0.0f;
            split(value, &qa_big[s][x], &qa_small[s][x]);
        }
    }
    float o[HEAD_DIM / 8][4];
    #pragma unroll
    for (int d = 0; d < HEAD_DIM / 8; d++) o[d][0] = o[d][1] = o[d][2] = o[d][3] = 0.0f;
    float m[2] = {NEG_INFINITY, NEG_INFINITY}, l[2] = {0.0f, 0.0f};

    const int keys = causal ? min(n, q0 + TILE_Q) : n;
    for (int k0 = 0; k0 < keys; k0 += TILE_K) {
        for (int e = threadIdx.x; e < TILE_K * HEAD_DIM; e += TF32_THREADS) {
            const int j = e / HEAD_DIM, c = e % HEAD_DIM;
            const bool inside = k0 + j < n;
            k_tile[j * ROW_STRIDE + c] = inside ? k[head + (size_t)(k0 + j) * HEAD_DIM + c] : 0.0f;
            v_tile[j * ROW_STRIDE + c] = inside ? v[head + (size_t)(k0 + j) * HEAD_DIM + c] : 0.0f;
        }
        __syncthreads();

        /* S = Q K^T: 16 rows by TILE_K keys, in blocks of 8 keys */
        float s[TILE_K / 8][4];
        #pragma unroll
        for (int nb = 0; nb < TILE_K / 8; nb++) {
            s[nb][0] = s[nb][1] = s[nb][2] = s[nb][3] = 0.0f;
            #pragma unroll
            for (int ks = 0; ks < HEAD_DIM / 8; ks++) {
                const float *kr = k_tile + (nb * 8 + g) * ROW_STRIDE + 8 * ks + t;
                unsigned b_big[2], b_small[2];
                split(kr[0], &b_big[0], &b_small[0]);
                split(kr[4], &b_big[1], &b_small[1]);
                mma_3xtf32(s[nb], qa_big[ks], qa_small[ks], b_big, b_small);
            }
        }
        mask_scores(s, k0, t, rows, n, causal);
        /* the online softmax: each row's new maximum, then the rescale */
        float base[2];
        rescale(s, o, m, l, base, scale_log2);
        /* O += P V, 8 keys at a time: P's block nb is the A operand with its keys in the order
           2t, 2t + 1 (as a0/a1 and a2/a3), and V's rows are read in that order */
        #pragma unroll
        for (int nb = 0; nb < TILE_K / 8; nb++) {
            float p[4];
            #pragma unroll
            for (int x = 0; x < 4; x++) p[x] = exp2f(s[nb][x] * scale_log2 - base[x / 2]);
            l[0] += p[0] + p[1];
            l[1] += p[2] + p[3];
            unsigned pa_big[4], pa_small[4];
            split(p[0], &pa_big[0], &pa_small[0]); /* row g,     key 2t */
            split(p[2], &pa_big[1], &pa_small[1]); /* row g + 8, key 2t */
            split(p[1], &pa_big[2], &pa_small[2]); /* row g,     key 2t + 1 */
            split(p[3], &pa_big[3], &pa_small[3]); /* row g + 8, key 2t + 1 */
            #pragma unroll
            for (int d = 0; d < HEAD_DIM / 8; d++) {
                const float *vr = v_tile + (nb * 8 + 2 * t) * ROW_STRIDE + 8 * d + g;
                unsigned b_big[2], b_small[2];
                split(vr[0], &b_big[0], &b_small[0]);
                split(vr[ROW_STRIDE], &b_big[1], &b_small[1]);
                mma_3xtf32(o[d], pa_big, pa_small, b_big, b_small);
            }
        }
        __syncthreads();
    }

    write_rows(o, l, rows, t, n, out + head);
}
