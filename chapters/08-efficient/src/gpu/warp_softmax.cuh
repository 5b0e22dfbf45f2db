/* The online softmax of chapter 8's two tensor-core kernels (attention_mma.cu, attention_tf32.cu),
 * on scores held as mma result fragments: a warp's 16 query rows by TILE_K keys, in blocks of 8
 * keys; lane 4 g + t holds keys 2t and 2t + 1 of row g (x = 0, 1 of each block) and of row g + 8
 * (x = 2, 3). Each row's four lanes (t = 0 .. 3) share its maximum and sum by shuffles. The host
 * puts this after common.cuh and before either kernel. */

#ifndef ON_HOST
static __device__ __forceinline__ float shfl_xor(float x, int lanes)
{
    return __shfl_xor_sync(0xffffffffu, x, lanes);
}
#endif

/* keys past the end, and with the causal mask keys after the row, get no weight */
static __device__ __forceinline__ void mask_scores(float (*s)[4], int k0, int t, const int *rows,
                                                   int n, int causal)
{
    #pragma unroll
    for (int nb = 0; nb < TILE_K / 8; nb++) {
        #pragma unroll
        for (int x = 0; x < 4; x++) {
            const int key = k0 + nb * 8 + 2 * t + x % 2;
            if (key >= n || (causal && key > rows[x / 2])) s[nb][x] = NEG_INFINITY;
        }
    }
}

/* each row's new maximum m over its 4 lanes; what was summed so far (l, o) rescaled to it; and
   base, what each score's exp2 subtracts: exp(x - m) is exp2(x log2(e) / sqrt(d) - base) */
static __device__ __forceinline__ void rescale(float (*s)[4], float (*o)[4], float *m, float *l,
                                               float *base, float scale_log2)
{
    #pragma unroll
    for (int r = 0; r < 2; r++) {
        float mx = m[r];
        #pragma unroll
        for (int nb = 0; nb < TILE_K / 8; nb++) mx = fmaxf(mx, fmaxf(s[nb][2 * r], s[nb][2 * r + 1]));
        mx = fmaxf(mx, shfl_xor(mx, 1));
        mx = fmaxf(mx, shfl_xor(mx, 2));
        /* a row that has seen only masked keys keeps -inf and base 0: weights 0, not NaN */
        base[r] = mx == NEG_INFINITY ? 0.0f : mx * scale_log2;
        const float correction = exp2f(m[r] * scale_log2 - base[r]);
        l[r] *= correction;
        #pragma unroll
        for (int d = 0; d < HEAD_DIM / 8; d++) {
            o[d][2 * r] *= correction;
            o[d][2 * r + 1] *= correction;
        }
        m[r] = mx;
    }
}

/* each row's sum over its 4 lanes, then out = O / l for the rows that exist; out points at the
   head's first row */
static __device__ __forceinline__ void write_rows(float (*o)[4], float *l, const int *rows, int t,
                                                  int n, float *out)
{
    #pragma unroll
    for (int r = 0; r < 2; r++) {
        l[r] += shfl_xor(l[r], 1);
        l[r] += shfl_xor(l[r], 2);
    }
    #pragma unroll
    for (int d = 0; d < HEAD_DIM / 8; d++) {
        #pragma unroll
        for (int x = 0; x < 4; x++) {
            const int row = rows[x / 2];
            if (row < n) out[(size_t)row * HEAD_DIM + d * 8 + 2 * t + x % 2] = o[d][x] / l[x / 2];
        }
    }
}
