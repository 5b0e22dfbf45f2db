/* Chapter 8's tiled exact attention as a CUDA kernel: the first, plain version.
 *
 * One thread block takes TILE_Q queries of one head, one thread per query row. The block streams
 * the head's keys and values through shared memory, TILE_K rows at a time; every thread keeps its
 * query row, a running maximum m, a running sum l and a running weighted sum of values acc in its
 * own registers (the online softmax of `tiled.rs`), and writes acc / l once at the end. The n x n
 * matrix of scores is never written anywhere.
 *
 * Compiled at run time by nvrtc, once per configuration; the host puts three lines before this
 * source (`plan.rs`, Config::defines): HEAD_DIM (64 or 128), TILE_K and TILE_Q, then common.cuh.
 * Layout: q, k, v and out are (heads, n, HEAD_DIM) row-major float32, batch folded into heads.
 * Grid: (ceil(n / TILE_Q), heads); block: TILE_Q threads. */

KERNEL void tiled_attention_f32(const float *q, const float *k, const float *v, float *out,
                                int n, int causal, float scale)
{
    SHARED_TILE(k_tile);
    SHARED_TILE(v_tile);
    const size_t head = (size_t)blockIdx.y * n * HEAD_DIM;
    const int q0 = blockIdx.x * TILE_Q;
    const int i = q0 + threadIdx.x; /* this thread's query row; past n it only helps load */

    float q_row[HEAD_DIM], acc[HEAD_DIM];
    float m = NEG_INFINITY, l = 0.0f;
    #pragma unroll
    for (int c = 0; c < HEAD_DIM; c++) {
        /* 1/sqrt(d) folded into the query once instead of into every score */
        q_row[c] = i < n ? q[head + (size_t)i * HEAD_DIM + c] * scale : 0.0f;
        acc[c] = 0.0f;
    }

    /* ANCHOR: plain_tile */
    /* with the causal mask, no query of this block sees a key after its last query:
       the tiles past the diagonal are skipped whole */
    const int keys = causal ? min(n, q0 + TILE_Q) : n;
    for (int k0 = 0; k0 < keys; k0 += TILE_K) {
        /* the whole block loads the tile; consecutive threads read consecutive floats */
        for (int e = threadIdx.x; e < TILE_K * HEAD_DIM; e += TILE_Q) {
            const int j = k0 + e / HEAD_DIM, c = e % HEAD_DIM;
            k_tile[e / HEAD_DIM][c] = j < n ? k[head + (size_t)j * HEAD_DIM + c] : 0.0f;
            v_tile[e / HEAD_DIM][c] = j < n ? v[head + (size_t)j * HEAD_DIM + c] : 0.0f;
        }
        __syncthreads();

        /* this row's keys in the tile: all that exist, and with the mask none after row i */
        int last = min(TILE_K, keys - k0);
        if (causal) last = min(last, i - k0 + 1);
        for (int j = 0; j < last; j++) {
            float s = 0.0f;
            #pragma unroll
            for (int c = 0; c < HEAD_DIM; c++) s += q_row[c] * k_tile[j][c];
            /* the online softmax, one key at a time: rescale what was summed when m grows */
            const float m_new = fmaxf(m, s);
            const float correction = expf(m - m_new); /* exp(-inf) = 0 on the first key */
            const float p = expf(s - m_new);
            l = l * correction + p;
            #pragma unroll
            for (int c = 0; c < HEAD_DIM; c++) acc[c] = acc[c] * correction + p * v_tile[j][c];
            m = m_new;
        }
        __syncthreads(); /* nobody loads the next tile while another thread still reads this one */
    }
    /* ANCHOR_END: plain_tile */

    if (i < n) {
        #pragma unroll
        for (int c = 0; c < HEAD_DIM; c++) out[head + (size_t)i * HEAD_DIM + c] = acc[c] / l;
    }
}
