// p2pbench transformer forward-pass kernels, compiled at run time with NVRTC (io.p2pbench.cuda.Nvrtc)
// as a module of their own, attention.cu following this file in one program
// (io.p2pbench.cuda.SuiteKernels#forward). The partition step launches them between its cuBLAS GEMMs;
// each one's output is checked against a host reference (io.p2pbench.partition.KernelReference) by the
// step's verify().
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
