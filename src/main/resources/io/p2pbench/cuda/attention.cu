// p2pbench attention kernels of the transformer forward pass: flash-decoding over the KV cache and
// causal flash attention on the tensor cores. Compiled with forward.cu as one NVRTC program (this file
// follows it and uses its helpers and layouts; io.p2pbench.cuda.SuiteKernels#forward).

// ---- decode attention: flash-decoding, split over the context ----

// Block (split, kvHead, sequence), 4 warps; sequence s is row s of q (its decode token), attends to
// tokenPos[s] + 1 tokens of cache slot tokenSlot[s]. The context is cut into `splits` chunks; each
// block runs an online softmax over its chunk for the G query heads sharing the KV head, warps taking
// 32-token tiles in turn, and writes its normalised partial output and log2-sum-exp; decodeCombine
// merges the splits. Scores: 8 lanes per key, 16 dimensions each, the lane's q dimensions held in
// registers as bf16 pairs (exact); the sum is scaled by scaleLog2 (softmax scale times log2 e), exp2
// throughout. Keys and values are read in batches of 16 tokens per warp, 16-byte loads all issued
// before their first use.
template <int G>
__device__ __forceinline__ void decodeAttentionBody(const u16* __restrict__ q, int qStride, const u16* __restrict__ kCache,
                                                    const u16* __restrict__ vCache, const int* __restrict__ tokenPos,
                                                    const int* __restrict__ tokenSlot, int kvHeads, int maxCtx,
                                                    float scaleLog2, float* __restrict__ partO,
                                                    float* __restrict__ partLse) {
    __shared__ float ps[4][G][32];
    __shared__ float wm[4][G];
    __shared__ float wl[4][G];
    __shared__ float wacc[4][G][HEAD];
    const int split = blockIdx.x, kvh = blockIdx.y, seq = blockIdx.z, splits = gridDim.x;
    const int heads = kvHeads * G;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int len = tokenPos[seq] + 1;
    const int slot = tokenSlot[seq];
    const int chunk = (len + splits - 1) / splits;
    const int begin = split * chunk;
    const int end = imin(len, begin + chunk);
    const int qkTok = lane >> 3, qkPart = lane & 7;  // scores: 8 lanes per token, 16 dims each
    const int pvTok = lane >> 4, pvPart = lane & 15; // values: 16 lanes per token, 8 dims each
    u32 qr[G][8];
#pragma unroll
    for (int g = 0; g < G; g++) {
        const uint4* src = (const uint4*)(q + (u64)seq * qStride + (u64)(kvh * G + g) * HEAD + qkPart * 16);
        uint4 a = src[0], c = src[1];
        qr[g][0] = a.x; qr[g][1] = a.y; qr[g][2] = a.z; qr[g][3] = a.w;
        qr[g][4] = c.x; qr[g][5] = c.y; qr[g][6] = c.z; qr[g][7] = c.w;
    }
    const u64 base = ((u64)slot * kvHeads + kvh) * (u64)maxCtx * HEAD;
    const u16* K = kCache + base;
    const u16* V = vCache + base;
    float m[G], l[G], acc[G][8];
#pragma unroll
    for (int g = 0; g < G; g++) {
        m[g] = NEG_INF;
        l[g] = 0.0f;
#pragma unroll
        for (int e = 0; e < 8; e++) acc[g][e] = 0.0f;
    }
    for (int tile = begin + warp * 32; tile < end; tile += 128) {
#pragma unroll 1
        for (int half = 0; half < 2; half++) {
            uint4 kv[4][2];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                int t = tile + (half * 4 + i) * 4 + qkTok;
                if (t < end) {
                    const uint4* src = (const uint4*)(K + (u64)t * HEAD + qkPart * 16);
                    kv[i][0] = src[0];
                    kv[i][1] = src[1];
                } else {
                    kv[i][0] = u4(0, 0, 0, 0);
                    kv[i][1] = u4(0, 0, 0, 0);
                }
            }
#pragma unroll
            for (int i = 0; i < 4; i++) {
                u32 w[8] = {kv[i][0].x, kv[i][0].y, kv[i][0].z, kv[i][0].w, kv[i][1].x, kv[i][1].y, kv[i][1].z, kv[i][1].w};
                float s[G];
#pragma unroll
                for (int g = 0; g < G; g++) {
                    float d = 0.0f;
#pragma unroll
                    for (int k = 0; k < 8; k++) d += lo16(qr[g][k]) * lo16(w[k]) + hi16(qr[g][k]) * hi16(w[k]);
                    d += __shfl_xor_sync(0xffffffffu, d, 1);
                    d += __shfl_xor_sync(0xffffffffu, d, 2);
                    d += __shfl_xor_sync(0xffffffffu, d, 4);
                    s[g] = d * scaleLog2;
                }
                if (qkPart == 0) {
                    int t = tile + (half * 4 + i) * 4 + qkTok;
#pragma unroll
                    for (int g = 0; g < G; g++) ps[warp][g][(half * 4 + i) * 4 + qkTok] = t < end ? s[g] : NEG_INF;
                }
            }
        }
        __syncwarp();
#pragma unroll
        for (int g = 0; g < G; g++) {
            float x = ps[warp][g][lane];
            float mnew = fmaxf(m[g], warpMax(x));
            float p = exp2f(x - mnew);
            float alpha = exp2f(m[g] - mnew);
            l[g] = l[g] * alpha + warpSum(p);
            m[g] = mnew;
            ps[warp][g][lane] = p;
#pragma unroll
            for (int e = 0; e < 8; e++) acc[g][e] *= alpha;
        }
        __syncwarp();
#pragma unroll 1
        for (int half = 0; half < 2; half++) {
            uint4 vv[8];
#pragma unroll
            for (int i = 0; i < 8; i++) {
                int t = tile + (half * 8 + i) * 2 + pvTok;
                vv[i] = t < end ? ((const uint4*)(V + (u64)t * HEAD))[pvPart] : u4(0, 0, 0, 0);
            }
#pragma unroll
            for (int i = 0; i < 8; i++) {
                u32 w[4] = {vv[i].x, vv[i].y, vv[i].z, vv[i].w};
#pragma unroll
                for (int g = 0; g < G; g++) {
                    float p = ps[warp][g][(half * 8 + i) * 2 + pvTok];
#pragma unroll
                    for (int k = 0; k < 4; k++) {
                        acc[g][2 * k] += p * lo16(w[k]);
                        acc[g][2 * k + 1] += p * hi16(w[k]);
                    }
                }
            }
        }
        __syncwarp();
    }
#pragma unroll
    for (int g = 0; g < G; g++) {
#pragma unroll
        for (int e = 0; e < 8; e++) acc[g][e] += __shfl_xor_sync(0xffffffffu, acc[g][e], 16);
        if (lane < 16) {
#pragma unroll
            for (int e = 0; e < 8; e++) wacc[warp][g][pvPart * 8 + e] = acc[g][e];
        }
        if (lane == 0) {
            wm[warp][g] = m[g];
            wl[warp][g] = l[g];
        }
    }
    __syncthreads();
    for (int i = tid; i < G * HEAD; i += blockDim.x) {
        int g = i / HEAD, d = i % HEAD;
        float mx = NEG_INF;
        for (int w = 0; w < 4; w++) mx = fmaxf(mx, wm[w][g]);
        float sum = 0.0f, o = 0.0f;
        if (mx != NEG_INF) {
            for (int w = 0; w < 4; w++) {
                float f = exp2f(wm[w][g] - mx);
                sum += wl[w][g] * f;
                o += wacc[w][g][d] * f;
            }
        }
        u64 at = ((u64)seq * heads + kvh * G + g) * splits + split;
        partO[at * HEAD + d] = sum > 0.0f ? o / sum : 0.0f;
        if (d == 0) partLse[at] = sum > 0.0f ? mx + log2f(sum) : NEG_INF;
    }
}

// Three blocks of 128 threads fit an SM's registers for up to 4 query heads per KV head: one wave of
// the ~384 blocks the host aims at on a 132-SM GPU.
#define DECODE_ATTENTION(G, BLOCKS)                                                                                 \
    extern "C" __global__ void __launch_bounds__(128, BLOCKS) decodeAttentionG##G(                                   \
        const u16* q, int qStride, const u16* kCache, const u16* vCache, const int* tokenPos, const int* tokenSlot,   \
        int kvHeads, int maxCtx, float scaleLog2, float* partO, float* partLse) {                                    \
        decodeAttentionBody<G>(q, qStride, kCache, vCache, tokenPos, tokenSlot, kvHeads, maxCtx, scaleLog2, partO,  \
                               partLse);                                                                             \
    }
DECODE_ATTENTION(1, 3)
DECODE_ATTENTION(2, 3)
DECODE_ATTENTION(4, 3)
DECODE_ATTENTION(8, 2)

// Block (head, sequence), one thread per dimension: merges the splits' partial outputs by their
// log2-sum-exp and writes the head's output row, bf16, at out[seq * outStride + head * 128].
extern "C" __global__ void decodeCombine(const float* __restrict__ partO, const float* __restrict__ partLse, u16* out,
                                         int heads, int splits, int outStride) {
    int h = blockIdx.x, seq = blockIdx.y, d = threadIdx.x;
    u64 at = ((u64)seq * heads + h) * splits;
    float mx = NEG_INF;
    for (int s = 0; s < splits; s++) mx = fmaxf(mx, partLse[at + s]);
    float sum = 0.0f, o = 0.0f;
    for (int s = 0; s < splits; s++) {
        float lse = partLse[at + s];
        if (lse == NEG_INF) continue;
        float w = exp2f(lse - mx);
        sum += w;
        o += w * partO[(at + s) * HEAD + d];
    }
    out[(u64)seq * outStride + h * HEAD + d] = tobf(o / sum);
}

// ---- prefill attention: causal flash attention on the tensor cores (mma.sync m16n8k16 bf16) ----

__device__ __forceinline__ u32 smemAddress(const void* p) {
    u32 a;
    asm volatile("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
    return a;
}

// Byte offset of 16-byte chunk c of row r in a [rows][128] bf16 tile, chunks XOR-swizzled by the row
// so that eight rows' same chunk fall in different banks (ldmatrix without conflicts).
__device__ __forceinline__ u32 swz(int r, int c) { return (u32)(r * 256 + ((c ^ (r & 7)) << 4)); }

__device__ __forceinline__ void cpAsync16(u32 dst, const void* src, int bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void cpAsyncCommit() { asm volatile("cp.async.commit_group;"); }
__device__ __forceinline__ void cpAsyncWaitAll() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }

__device__ __forceinline__ void ldsm4(u32* r, u32 addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldsm4t(u32* r, u32 addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}

// d += a (16x16, row) * b (16x8, col), float accumulators.
__device__ __forceinline__ void mma16816(float* d, const u32* a, u32 b0, u32 b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Loads rows [first, first + 64) of a [tokens][128] head (rows at or past `limit` as zeros) into a swizzled tile.
__device__ __forceinline__ void loadTile(u32 tile, const u16* src, int first, int limit) {
    for (int c = threadIdx.x; c < 64 * 16; c += blockDim.x) {
        int r = c >> 4, ch = c & 15;
        int t = first + r;
        bool in = t < limit;
        cpAsync16(tile + swz(r, ch), src + (u64)(in ? t : 0) * HEAD + ch * 8, in ? 16 : 0);
    }
}

// Block (query tile of 64, head, prefill sequence), 4 warps of 16 query rows. Sequence p's new tokens
// are rows info[4p] .. + info[4p+1] of qkv (q already rotated), its keys and values the first
// info[4p+2] + info[4p+1] positions of cache slot info[4p+3] (the rotary kernel wrote the new ones);
// query i sits at position cached + i and sees keys 0 .. cached + i. Output row-major into out.
extern "C" __global__ void __launch_bounds__(128) prefillAttention(const u16* __restrict__ qkv, int qkvStride,
                                                                     const u16* __restrict__ kCache,
                                                                     const u16* __restrict__ vCache,
                                                                     const int* __restrict__ info, int heads,
                                                                     int kvHeads, int maxCtx, float scaleLog2, u16* out,
                                                                     int outStride) {
    __shared__ __align__(128) u16 sQ[64 * HEAD];
    __shared__ __align__(128) u16 sK[64 * HEAD];
    __shared__ __align__(128) u16 sV[64 * HEAD];
    const int p = blockIdx.z, h = blockIdx.y;
    const int rowStart = info[4 * p], len = info[4 * p + 1], cached = info[4 * p + 2], slot = info[4 * p + 3];
    const int q0 = (gridDim.x - 1 - blockIdx.x) * 64;  // the longest tiles first
    if (q0 >= len) return;
    const int kvh = h / (heads / kvHeads);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const u64 base = ((u64)slot * kvHeads + kvh) * (u64)maxCtx * HEAD;
    const u16* K = kCache + base;
    const u16* V = vCache + base;
    const int kEnd = cached + imin(len, q0 + 64);
    const int tiles = (kEnd + 63) / 64;
    const u32 aQ = smemAddress(sQ), aK = smemAddress(sK), aV = smemAddress(sV);

    for (int c = threadIdx.x; c < 64 * 16; c += blockDim.x) {
        int r = c >> 4, ch = c & 15;
        int qr = q0 + r;
        const u16* src = qkv + (u64)(rowStart + imin(qr, len - 1)) * qkvStride + (u64)h * HEAD + ch * 8;
        cpAsync16(aQ + swz(r, ch), src, qr < len ? 16 : 0);
    }
    loadTile(aK, K, 0, kEnd);
    cpAsyncCommit();
    cpAsyncWaitAll();
    __syncthreads();

    u32 qf[8][4];
#pragma unroll
    for (int ks = 0; ks < 8; ks++) {
        int r = warp * 16 + (lane & 7) + ((lane >> 3) & 1) * 8;
        ldsm4(qf[ks], aQ + swz(r, ks * 2 + (lane >> 4)));
    }
    float o[16][4];
#pragma unroll
    for (int i = 0; i < 16; i++) o[i][0] = o[i][1] = o[i][2] = o[i][3] = 0.0f;
    float mrow[2] = {NEG_INF, NEG_INF};
    float lrow[2] = {0.0f, 0.0f};
    const int qpos0 = cached + q0 + warp * 16 + (lane >> 2);  // this lane's first row; the second is +8

    for (int j = 0; j < tiles; j++) {
        loadTile(aV, V, j * 64, kEnd);
        cpAsyncCommit();
        float s[8][4];
#pragma unroll
        for (int i = 0; i < 8; i++) s[i][0] = s[i][1] = s[i][2] = s[i][3] = 0.0f;
#pragma unroll
        for (int ks = 0; ks < 8; ks++) {
#pragma unroll
            for (int n2 = 0; n2 < 4; n2++) {
                u32 b[4];
                ldsm4(b, aK + swz(n2 * 16 + (lane & 7) + (lane >> 4) * 8, ks * 2 + ((lane >> 3) & 1)));
                mma16816(s[2 * n2], qf[ks], b[0], b[1]);
                mma16816(s[2 * n2 + 1], qf[ks], b[2], b[3]);
            }
        }
        const int key0 = j * 64 + (lane & 3) * 2;
#pragma unroll
        for (int rr = 0; rr < 2; rr++) {
            const int qpos = qpos0 + rr * 8;
            float mx = NEG_INF;
#pragma unroll
            for (int nt = 0; nt < 8; nt++) {
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    int key = key0 + nt * 8 + e;
                    float v = (key <= qpos && key < kEnd) ? s[nt][2 * rr + e] * scaleLog2 : NEG_INF;
                    s[nt][2 * rr + e] = v;
                    mx = fmaxf(mx, v);
                }
            }
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
            float mnew = fmaxf(mrow[rr], mx);
            float alpha = exp2f(mrow[rr] - mnew);
            mrow[rr] = mnew;
            float sum = 0.0f;
#pragma unroll
            for (int nt = 0; nt < 8; nt++) {
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    float pv = exp2f(s[nt][2 * rr + e] - mnew);
                    s[nt][2 * rr + e] = pv;
                    sum += pv;
                }
            }
            lrow[rr] = lrow[rr] * alpha + sum;
#pragma unroll
            for (int dt = 0; dt < 16; dt++) {
                o[dt][2 * rr] *= alpha;
                o[dt][2 * rr + 1] *= alpha;
            }
        }
        u32 pf[4][4];
#pragma unroll
        for (int kk = 0; kk < 4; kk++) {
            pf[kk][0] = pack2(s[2 * kk][0], s[2 * kk][1]);
            pf[kk][1] = pack2(s[2 * kk][2], s[2 * kk][3]);
            pf[kk][2] = pack2(s[2 * kk + 1][0], s[2 * kk + 1][1]);
            pf[kk][3] = pack2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
        }
        cpAsyncWaitAll();
        __syncthreads();  // V tile in; every warp is done with the K tile
        if (j + 1 < tiles) {
            loadTile(aK, K, (j + 1) * 64, kEnd);
            cpAsyncCommit();
        }
#pragma unroll
        for (int kk = 0; kk < 4; kk++) {
#pragma unroll
            for (int d2 = 0; d2 < 8; d2++) {
                u32 b[4];
                ldsm4t(b, aV + swz(kk * 16 + (lane & 7) + ((lane >> 3) & 1) * 8, d2 * 2 + (lane >> 4)));
                mma16816(o[2 * d2], pf[kk], b[0], b[1]);
                mma16816(o[2 * d2 + 1], pf[kk], b[2], b[3]);
            }
        }
        cpAsyncWaitAll();
        __syncthreads();  // next K tile in; every warp is done with the V tile
    }
#pragma unroll
    for (int rr = 0; rr < 2; rr++) {
        float l = lrow[rr];
        l += __shfl_xor_sync(0xffffffffu, l, 1);
        l += __shfl_xor_sync(0xffffffffu, l, 2);
        float inv = 1.0f / l;
        int qr = q0 + warp * 16 + (lane >> 2) + rr * 8;
        if (qr < len) {
            u32* dst = (u32*)(out + (u64)(rowStart + qr) * outStride + (u64)h * HEAD + (lane & 3) * 2);
#pragma unroll
            for (int dt = 0; dt < 16; dt++) dst[dt * 4] = pack2(o[dt][2 * rr] * inv, o[dt][2 * rr + 1] * inv);
        }
    }
}
