// p2pbench transformer forward-pass kernels, compiled at run time with NVRTC (io.p2pbench.cuda.Nvrtc),
// as a module of its own (io.p2pbench.cuda.SuiteKernels#forward). The partition step launches them
// between its cuBLAS GEMMs; each one's output is checked against a host reference
// (io.p2pbench.partition.KernelReference) by the step's verify().
//
// Layouts (all bfloat16 unless said otherwise, row-major):
//   activations [rows x hidden]; qkv [rows x (heads + 2 kvHeads) * 128]: q heads, then k heads, then v heads;
//   KV cache per layer: K and V each [slot][kvHead][maxCtx][128];
//   per-token metadata (int): tokenPos[t] (position in its sequence), tokenSlot[t] (its sequence's cache slot);
//   prefill metadata (int, 4 per prefill sequence): first row, new tokens, cached tokens, slot.
// Head size is 128 throughout (every preset's); the host checks it.

typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned short u16;

#define HEAD 128
#define NEG_INF __int_as_float(0xff800000)

__device__ __forceinline__ int imin(int a, int b) { return a < b ? a : b; }
__device__ __forceinline__ int imax(int a, int b) { return a > b ? a : b; }

__device__ __forceinline__ u32 fmix32(u32 h) {
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

__device__ __forceinline__ float bf(u16 b) { return __uint_as_float(((u32)b) << 16); }

// Round to nearest even, as the hardware conversion does; NaN stays NaN.
__device__ __forceinline__ u16 tobf(float f) {
    u32 u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (u16)((u >> 16) | 0x40u);
    u32 rounding = 0x7fffu + ((u >> 16) & 1u);
    return (u16)((u + rounding) >> 16);
}

// Two bfloat16 values in one word: lo in the low half (the lower index), as mma operands and memory hold them.
__device__ __forceinline__ u32 pack2(float lo, float hi) { return (u32)tobf(lo) | ((u32)tobf(hi) << 16); }
__device__ __forceinline__ float lo16(u32 w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float hi16(u32 w) { return __uint_as_float(w & 0xffff0000u); }

__device__ __forceinline__ uint4 u4(u32 a, u32 b, u32 c, u32 d) {
    uint4 v;
    v.x = a;
    v.y = b;
    v.z = c;
    v.w = d;
    return v;
}

__device__ __forceinline__ u64 globalThread() { return (u64)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ u64 gridThreads() { return (u64)gridDim.x * blockDim.x; }

__device__ __forceinline__ float warpSum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warpMax(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// ---- fills ----

// Element i: a multiple of 2^-8 in [-0.5, 0.5) times scale (a power of two keeps it exact in bfloat16);
// the same values as kernels.cu's fillRankBf16 when scale is 1.
extern "C" __global__ void fillScaledBf16(u16* p, u64 n, u32 seed, u32 rank, float scale) {
    for (u64 i = globalThread(); i < n; i += gridThreads()) {
        u32 h = fmix32((u32)i * 0x9E3779B9u + seed + rank * 0x632BE5ABu) ^ (u32)(i >> 32);
        p[i] = tobf(((float)(h & 0xFFu) * (1.0f / 256.0f) - 0.5f) * scale);
    }
}

// ---- embedding lookup ----

// The token id of row r (the step has no tokenizer): a hash of the row, below vocabRows.
__device__ __forceinline__ u32 tokenId(u32 row, u32 seed, u32 vocabRows) { return fmix32(row * 0x9E3779B9u + seed) % vocabRows; }

// out[r] = table[tokenId(r)]; one block per row, 16-byte vectors (hidden % 8 == 0).
extern "C" __global__ void embedRows(uint4* out, const uint4* __restrict__ table, int hidden, u32 vocabRows, u32 seed) {
    int r = blockIdx.x;
    int vectors = hidden / 8;
    u32 id = tokenId((u32)r, seed, vocabRows);
    const uint4* src = table + (u64)id * vectors;
    uint4* dst = out + (u64)r * vectors;
    for (int i = threadIdx.x; i < vectors; i += blockDim.x) dst[i] = src[i];
}

// ---- RMSNorm fused with the residual add ----

// One block per row. addResidual 1: res = bf16(res + x); 0: res = x. Then, when writeNorm,
// out = bf16(res * rsqrt(mean(res^2) + eps) * weight), res taken as stored (rounded) values.
extern "C" __global__ void addRmsNorm(u16* out, u16* res, const u16* x, const u16* __restrict__ weight, int hidden,
                                      float eps, int addResidual, int writeNorm) {
    __shared__ float partial[32];
    u64 row = blockIdx.x;
    const uint4* xv = (const uint4*)(x + row * hidden);
    uint4* rv = (uint4*)(res + row * hidden);
    int vectors = hidden / 8;
    float sum = 0.0f;
    for (int i = threadIdx.x; i < vectors; i += blockDim.x) {
        uint4 a = xv[i];
        uint4 z = a;
        if (addResidual) {
            uint4 b = rv[i];
            z.x = pack2(lo16(a.x) + lo16(b.x), hi16(a.x) + hi16(b.x));
            z.y = pack2(lo16(a.y) + lo16(b.y), hi16(a.y) + hi16(b.y));
            z.z = pack2(lo16(a.z) + lo16(b.z), hi16(a.z) + hi16(b.z));
            z.w = pack2(lo16(a.w) + lo16(b.w), hi16(a.w) + hi16(b.w));
        }
        rv[i] = z;
        u32 w[4] = {z.x, z.y, z.z, z.w};
#pragma unroll
        for (int k = 0; k < 4; k++) {
            float l = lo16(w[k]), h = hi16(w[k]);
            sum += l * l + h * h;
        }
    }
    if (!writeNorm) return;
    sum = warpSum(sum);
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0) partial[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        float s = lane < (int)(blockDim.x >> 5) ? partial[lane] : 0.0f;
        s = warpSum(s);
        if (lane == 0) partial[0] = s;
    }
    __syncthreads();
    float inv = rsqrtf(partial[0] / (float)hidden + eps);
    const uint4* wv = (const uint4*)weight;
    uint4* ov = (uint4*)(out + row * hidden);
    for (int i = threadIdx.x; i < vectors; i += blockDim.x) {
        uint4 z = rv[i];  // this thread's own store above
        uint4 g = wv[i];
        uint4 o;
        o.x = pack2(lo16(z.x) * inv * lo16(g.x), hi16(z.x) * inv * hi16(g.x));
        o.y = pack2(lo16(z.y) * inv * lo16(g.y), hi16(z.y) * inv * hi16(g.y));
        o.z = pack2(lo16(z.z) * inv * lo16(g.z), hi16(z.z) * inv * hi16(g.z));
        o.w = pack2(lo16(z.w) * inv * lo16(g.w), hi16(z.w) * inv * hi16(g.w));
        ov[i] = o;
    }
}

// ---- SiLU(gate) * up ----

__device__ __forceinline__ float silu(float g) { return g / (1.0f + expf(-g)); }

// out[r][j] = silu(gu[r][j]) * gu[r][ffn + j] over rows x ffn (ffn % 8 == 0), as one GEMM wrote gate and up side by side.
extern "C" __global__ void siluMul(uint4* out, const uint4* __restrict__ gu, u64 rows, int ffn) {
    u64 perRow = ffn / 8;
    u64 n = rows * perRow;
    for (u64 i = globalThread(); i < n; i += gridThreads()) {
        u64 r = i / perRow, c = i % perRow;
        uint4 g = gu[r * 2 * perRow + c];
        uint4 u = gu[r * 2 * perRow + perRow + c];
        uint4 o;
        o.x = pack2(silu(lo16(g.x)) * lo16(u.x), silu(hi16(g.x)) * hi16(u.x));
        o.y = pack2(silu(lo16(g.y)) * lo16(u.y), silu(hi16(g.y)) * hi16(u.y));
        o.z = pack2(silu(lo16(g.z)) * lo16(u.z), silu(hi16(g.z)) * hi16(u.z));
        o.w = pack2(silu(lo16(g.w)) * lo16(u.w), silu(hi16(g.w)) * hi16(u.w));
        out[i] = o;
    }
}

// ---- rotary embedding on q and k, and the KV-cache write ----

// Blocks (token row, part of its heads). Rotate-half rotary (Llama): for pair i of a head, angle =
// pos * invFreq[i], x[i] = x1 cos - x2 sin, x[i + 64] = x2 cos + x1 sin. q is rotated in place in qkv;
// k rotated and v as is are written to the token's slot and position in the cache. Each thread takes 8
// pairs of one head, or 8 values of a v head.
extern "C" __global__ void rotaryCache(u16* qkv, int qkvStride, u16* kCache, u16* vCache, const int* __restrict__ tokenPos,
                                       const int* __restrict__ tokenSlot, const float* __restrict__ invFreq, int heads,
                                       int kvHeads, int maxCtx) {
    int t = blockIdx.x;
    int pos = tokenPos[t];
    int slot = tokenSlot[t];
    u16* row = qkv + (u64)t * qkvStride;
    int rotTasks = (heads + kvHeads) * 8;  // 8 threads per head, 8 pairs each
    int vTasks = kvHeads * 16;             // 16 vectors of 8 per v head
    for (int task = blockIdx.y * blockDim.x + threadIdx.x; task < rotTasks + vTasks; task += blockDim.x * gridDim.y) {
        if (task < rotTasks) {
            int h = task / 8, part = task % 8;
            u16* x = row + h * HEAD;
            uint4 a = *(const uint4*)(x + part * 8);
            uint4 b = *(const uint4*)(x + 64 + part * 8);
            u32 av[4] = {a.x, a.y, a.z, a.w};
            u32 bv[4] = {b.x, b.y, b.z, b.w};
            u32 ra[4], rb[4];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                float s0, c0, s1, c1;
                sincosf((float)pos * invFreq[part * 8 + 2 * k], &s0, &c0);
                sincosf((float)pos * invFreq[part * 8 + 2 * k + 1], &s1, &c1);
                float x10 = lo16(av[k]), x11 = hi16(av[k]), x20 = lo16(bv[k]), x21 = hi16(bv[k]);
                ra[k] = pack2(x10 * c0 - x20 * s0, x11 * c1 - x21 * s1);
                rb[k] = pack2(x20 * c0 + x10 * s0, x21 * c1 + x11 * s1);
            }
            uint4 oa = u4(ra[0], ra[1], ra[2], ra[3]);
            uint4 ob = u4(rb[0], rb[1], rb[2], rb[3]);
            if (h < heads) {
                *(uint4*)(x + part * 8) = oa;
                *(uint4*)(x + 64 + part * 8) = ob;
            } else {
                int kvh = h - heads;
                u16* dst = kCache + (((u64)slot * kvHeads + kvh) * maxCtx + pos) * HEAD;
                *(uint4*)(dst + part * 8) = oa;
                *(uint4*)(dst + 64 + part * 8) = ob;
            }
        } else {
            int v = task - rotTasks;
            int kvh = v / 16, part = v % 16;
            const u16* src = row + (heads + kvHeads + kvh) * HEAD + part * 8;
            u16* dst = vCache + (((u64)slot * kvHeads + kvh) * maxCtx + pos) * HEAD + part * 8;
            *(uint4*)dst = *(const uint4*)src;
        }
    }
}

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

// ---- mixtures of experts ----

// dst[r] = src[srcRow[r]] for r < rows (hidden % 8 == 0); one block per row.
extern "C" __global__ void gatherRows(uint4* dst, const uint4* __restrict__ src, const int* __restrict__ srcRow,
                                      int hidden) {
    int r = blockIdx.x;
    int vectors = hidden / 8;
    const uint4* s = src + (u64)srcRow[r] * vectors;
    uint4* d = dst + (u64)r * vectors;
    for (int i = threadIdx.x; i < vectors; i += blockDim.x) d[i] = s[i];
}

// The router's weights for each token's chosen experts: softmax over the chosen experts' logits
// (what a softmax over all of them renormalised over the top k gives). logits [rows x experts] bf16,
// choice and gate [rows x topK]. One thread per token.
extern "C" __global__ void routerGates(const u16* __restrict__ logits, int experts, const int* __restrict__ choice,
                                       float* gate, int rows, int topK) {
    for (u64 t = globalThread(); t < (u64)rows; t += gridThreads()) {
        float mx = NEG_INF;
        for (int k = 0; k < topK; k++) mx = fmaxf(mx, bf(logits[t * experts + choice[t * topK + k]]));
        float sum = 0.0f;
        for (int k = 0; k < topK; k++) sum += expf(bf(logits[t * experts + choice[t * topK + k]]) - mx);
        for (int k = 0; k < topK; k++) gate[t * topK + k] = expf(bf(logits[t * experts + choice[t * topK + k]]) - mx) / sum;
    }
}

// out[t] = sum over k of gate[t][k] * expertOut[rowOf[t][k]], bf16 (hidden % 8 == 0); one block per token.
extern "C" __global__ void expertCombine(uint4* out, const uint4* __restrict__ expertOut, const int* __restrict__ rowOf,
                                         const float* __restrict__ gate, int topK, int hidden) {
    int t = blockIdx.x;
    int vectors = hidden / 8;
    for (int i = threadIdx.x; i < vectors; i += blockDim.x) {
        float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int k = 0; k < topK; k++) {
            float g = gate[t * topK + k];
            uint4 v = expertOut[(u64)rowOf[t * topK + k] * vectors + i];
            u32 w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
            for (int e = 0; e < 4; e++) {
                acc[2 * e] += g * lo16(w[e]);
                acc[2 * e + 1] += g * hi16(w[e]);
            }
        }
        out[(u64)t * vectors + i] = u4(pack2(acc[0], acc[1]), pack2(acc[2], acc[3]), pack2(acc[4], acc[5]),
                                               pack2(acc[6], acc[7]));
    }
}
