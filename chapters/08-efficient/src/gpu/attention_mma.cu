/* Chapter 8's tiled attention on the GPU's tensor cores: the second version.
 *
 * Inputs in half precision (float16, or bfloat16 with HALF_BF16 1), products and softmax in
 * float32. A thread block takes TILE_Q = 128 queries of one head with eight warps, 16 query rows
 * each. Each warp computes its scores S = Q K^T for a tile of 64 keys with the tensor cores'
 * mma.sync m16n8k16 (16 x 8 outputs per instruction, summing over 16 dims), keeps the online
 * softmax's running maximum and sum for its rows, turns the tile's scores into probabilities P in
 * the registers where they were computed, and adds P V with the same instruction. Nothing of S or
 * P goes to memory, not even to shared memory.
 *
 * Fragments (PTX ISA, "Matrix fragments for mma.m16n8k16"): lane = 4 g + t holds, of the 16 x 16
 * A operand, rows g and g + 8, columns 2t, 2t + 1 and 8 + 2t, 8 + 2t + 1; of the 16 x 8 B operand,
 * column g, rows 2t, 2t + 1 and 8 + 2t, 8 + 2t + 1; of the 16 x 8 result, rows g and g + 8,
 * columns 2t and 2t + 1. A result's two 8-key blocks are exactly an A operand of 16 keys, so P
 * feeds the second product without moving.
 *
 * Compiled at run time by nvrtc, once per configuration; the host puts HEAD_DIM (64 or 128),
 * TILE_K (64), TILE_Q (128) and HALF_BF16 (0 or 1), then common.cuh and warp_softmax.cuh (the
 * online softmax on fragments, shared with attention_tf32.cu), before this source. Layout: q, k,
 * v are (heads, n, HEAD_DIM) row-major halves, out the same in float32. Grid:
 * (ceil(n / 128), heads); block: 256 threads. Needs compute capability 8.0 or newer. */

#define MMA_THREADS (TILE_Q / 16 * 32)
/* rows of the shared tiles padded by 8 halves (16 bytes): the 8 rows a warp reads at once then
   start in different banks */
#define K_STRIDE (HEAD_DIM + 8)
#define VT_STRIDE (TILE_K + 8)

#ifndef ON_HOST
#if HALF_BF16
#define MMA "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
#define CVT_PAIR "cvt.rn.bf16x2.f32 "
#else
#define MMA "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
#define CVT_PAIR "cvt.rn.f16x2.f32 "
#endif

/* c += a b for one 16 x 8 block: a warp-wide instruction, every lane passing its fragments */
static __device__ __forceinline__ void mma_16816(float *c, const unsigned *a, const unsigned *b)
{
    asm volatile(MMA "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* two floats rounded to halves, lo in the low 16 bits */
static __device__ __forceinline__ unsigned pack_pair(float lo, float hi)
{
    unsigned r;
    asm(CVT_PAIR "%0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}


/* two neighbouring halves as one 32-bit word (the index is even: 4-byte aligned) */
static __device__ __forceinline__ unsigned pair_at(const unsigned short *p)
{
    return *(const unsigned *)p;
}

static __device__ __forceinline__ void store_pair(unsigned short *p, unsigned x)
{
    *(unsigned *)p = x;
}
#endif

KERNEL void tiled_attention_mma(const unsigned short *q, const unsigned short *k,
                                const unsigned short *v, float *out, int n, int causal,
                                float scale_log2)
{
    SHARED_HALVES(k_tile, TILE_K * K_STRIDE);   /* [key][dim] */
    SHARED_HALVES(vt_tile, HEAD_DIM * VT_STRIDE); /* [dim][key]: V transposed, for B fragments */
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int g = lane / 4, t = lane % 4;
    const size_t head = (size_t)blockIdx.y * n * HEAD_DIM;
    const int q0 = blockIdx.x * TILE_Q;
    const int rows[2] = {q0 + warp * 16 + g, q0 + warp * 16 + g + 8}; /* this lane's two rows */

    /* the warp's 16 query rows as A fragments, one per 16 dims; they stay in registers */
    unsigned qa[HEAD_DIM / 16][4];
    #pragma unroll
    for (int s = 0; s < HEAD_DIM / 16; s++) {
        #pragma unroll
        for (int x = 0; x < 4; x++) {
            const int row = rows[x % 2], col = 16 * s + 8 * (x / 2) + 2 * t;
            qa[s][x] = row < n ? pair_at(q + head + (size_t)row * HEAD_DIM + col) : 0u;
        }
    }
    float o[HEAD_DIM / 8][4];
    #pragma unroll
    for (int d = 0; d < HEAD_DIM / 8; d++) o[d][0] = o[d][1] = o[d][2] = o[d][3] = 0.0f;
    /* per row: the running maximum (a score) and this lane's share of the running sum */
    float m[2] = {NEG_INFINITY, NEG_INFINITY}, l[2] = {0.0f, 0.0f};

    const int keys = causal ? min(n, q0 + TILE_Q) : n;
    for (int k0 = 0; k0 < keys; k0 += TILE_K) {
        /* the block loads the tile, two halves at a time: K as it is, V transposed */
        for (int e = threadIdx.x; e < TILE_K * HEAD_DIM / 2; e += MMA_THREADS) {
            const int j = e / (HEAD_DIM / 2), c = 2 * (e % (HEAD_DIM / 2));
            unsigned kp = 0u, vp = 0u;
            if (k0 + j < n) {
                kp = pair_at(k + head + (size_t)(k0 + j) * HEAD_DIM + c);
                vp = pair_at(v + head + (size_t)(k0 + j) * HEAD_DIM + c);
            }
            store_pair(k_tile + j * K_STRIDE + c, kp);
            vt_tile[c * VT_STRIDE + j] = (unsigned short)(vp & 0xffffu);
            vt_tile[(c + 1) * VT_STRIDE + j] = (unsigned short)(vp >> 16);
        }
        __syncthreads();

        /* S = Q K^T: 16 rows by 64 keys, in 8 blocks of 8 keys */
        float s[TILE_K / 8][4];
        #pragma unroll
        for (int nb = 0; nb < TILE_K / 8; nb++) {
            s[nb][0] = s[nb][1] = s[nb][2] = s[nb][3] = 0.0f;
            #pragma unroll
            for (int ks = 0; ks < HEAD_DIM / 16; ks++) {
                const unsigned short *kr = k_tile + (nb * 8 + g) * K_STRIDE + 16 * ks + 2 * t;
                const unsigned b[2] = {pair_at(kr), pair_at(kr + 8)};
                mma_16816(s[nb], qa[ks], b);
            }
        }
        mask_scores(s, k0, t, rows, n, causal);
        /* the online softmax: each row's new maximum, then the rescale */
        float base[2];
        rescale(s, o, m, l, base, scale_log2);
        /* P, rounded to halves as A fragments of 16 keys; the sums l keep float32 */
        unsigned pa[TILE_K / 16][4];
        #pragma unroll
        for (int j = 0; j < TILE_K / 16; j++) {
            float p[2][4];
            #pragma unroll
            for (int h = 0; h < 2; h++) {
                #pragma unroll
                for (int x = 0; x < 4; x++) p[h][x] = exp2f(s[2 * j + h][x] * scale_log2 - base[x / 2]);
            }
            l[0] += p[0][0] + p[0][1] + p[1][0] + p[1][1];
            l[1] += p[0][2] + p[0][3] + p[1][2] + p[1][3];
            pa[j][0] = pack_pair(p[0][0], p[0][1]); /* row g,     keys 2t, 2t + 1 */
            pa[j][1] = pack_pair(p[0][2], p[0][3]); /* row g + 8, keys 2t, 2t + 1 */
            pa[j][2] = pack_pair(p[1][0], p[1][1]); /* row g,     keys 8 + 2t, 8 + 2t + 1 */
            pa[j][3] = pack_pair(p[1][2], p[1][3]); /* row g + 8, keys 8 + 2t, 8 + 2t + 1 */
        }
        /* O += P V: 16 rows by HEAD_DIM, in blocks of 8 dims */
        #pragma unroll
        for (int d = 0; d < HEAD_DIM / 8; d++) {
            #pragma unroll
            for (int j = 0; j < TILE_K / 16; j++) {
                const unsigned short *vr = vt_tile + (d * 8 + g) * VT_STRIDE + 16 * j + 2 * t;
                const unsigned b[2] = {pair_at(vr), pair_at(vr + 8)};
                mma_16816(o[d], pa[j], b);
            }
        }
        __syncthreads(); /* nobody loads the next tile while another warp still reads this one */
    }

    write_rows(o, l, rows, t, n, out + head);
}

/* float32 to halves, two at a time (every tensor here has an even length) */
KERNEL void to_halves(const float *x, unsigned *y, int pairs)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pairs) y[i] = pack_pair(x[2 * i], x[2 * i + 1]);
}
