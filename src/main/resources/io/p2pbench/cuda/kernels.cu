// p2pbench device kernels, compiled at run time with NVRTC (see io.p2pbench.cuda.Nvrtc).
// Every kernel is extern "C" so the host looks it up by its plain name.
// The pattern functions must stay identical to io.p2pbench.transfer.Pattern (Java).

typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned short u16;

#define POISON_WORD 0xA5A5A5A5u

__device__ __forceinline__ u32 fmix32(u32 h) {
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

// Word i of the position-dependent pattern for a seed. Never equal to the poison word, so a word
// that a copy failed to write can never pass as data.
__device__ __forceinline__ u32 patternWord(u32 seed, u64 i) {
    u32 w = fmix32((u32)i * 0x9E3779B9u + seed) ^ (u32)(i >> 32);
    return w == POISON_WORD ? ~w : w;
}

__device__ __forceinline__ u64 globalThread() { return (u64)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ u64 gridThreads() { return (u64)gridDim.x * blockDim.x; }

extern "C" __global__ void fillPattern(u32* p, u64 words, u32 seed) {
    for (u64 i = globalThread(); i < words; i += gridThreads()) {
        p[i] = patternWord(seed, i);
    }
}

extern "C" __global__ void fillWord(u32* p, u64 words, u32 value) {
    for (u64 i = globalThread(); i < words; i += gridThreads()) {
        p[i] = value;
    }
}

// result[0] += number of words that differ from the pattern; result[1] = min(result[1], first bad index).
// The caller zeroes result[0] and sets result[1] to all ones before the launch.
extern "C" __global__ void verifyPattern(const u32* p, u64 words, u32 seed, u64* result) {
    u64 bad = 0;
    u64 first = ~0ull;
    for (u64 i = globalThread(); i < words; i += gridThreads()) {
        if (p[i] != patternWord(seed, i)) {
            bad++;
            if (i < first) first = i;
        }
    }
    if (bad != 0) {
        atomicAdd(&result[0], bad);
        atomicMin(&result[1], first);
    }
}

// SM copy: each thread moves 16-byte vectors (four in flight per loop trip), then the 4-byte tail.
// With peer access enabled, src or dst may be another GPU's memory: the loads or stores then cross
// NVLink or PCIe directly from the SMs.
extern "C" __global__ void copy16(uint4* __restrict__ dst, const uint4* __restrict__ src, u64 vectors,
                                  u32* __restrict__ dstTail, const u32* __restrict__ srcTail, u32 tailWords) {
    const u64 stride = gridThreads();
    u64 i = globalThread();
    for (; i + 3 * stride < vectors; i += 4 * stride) {
        uint4 a = src[i];
        uint4 b = src[i + stride];
        uint4 c = src[i + 2 * stride];
        uint4 d = src[i + 3 * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2 * stride] = c;
        dst[i + 3 * stride] = d;
    }
    for (; i < vectors; i += stride) {
        dst[i] = src[i];
    }
    u64 t = globalThread();
    if (t < tailWords) {
        dstTail[t] = srcTail[t];
    }
}

// Stream gate fallback for GPUs without stream memory operations: one thread spins until the
// host-mapped flag reaches gen, or gives up after timeoutNs of device time and says so.
extern "C" __global__ void gateSpin(const volatile u32* flag, u32 gen, u64 timeoutNs, u32* timedOut) {
    u64 start;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    while (*flag < gen) {
        u64 now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (now - start > timeoutNs) {
            *timedOut = 1u;
            return;
        }
        __nanosleep(256);
    }
}

// ---- collectives: deterministic inputs and element-wise sums ----

// Rank r's input element i: a multiple of 2^-16 in [-0.5, 0.5), so float32 sums of up to 256 ranks are exact.
__device__ __forceinline__ float rankValueF32(u32 seed, u32 rank, u64 i) {
    u32 h = fmix32((u32)i * 0x9E3779B9u + seed + rank * 0x632BE5ABu) ^ (u32)(i >> 32);
    return (float)(h & 0xFFFFu) * (1.0f / 65536.0f) - 0.5f;
}

// Rank r's bfloat16 input: a multiple of 2^-8 in [-0.5, 0.5), exactly representable in bfloat16.
__device__ __forceinline__ float rankValueBf16(u32 seed, u32 rank, u64 i) {
    u32 h = fmix32((u32)i * 0x9E3779B9u + seed + rank * 0x632BE5ABu) ^ (u32)(i >> 32);
    return (float)(h & 0xFFu) * (1.0f / 256.0f) - 0.5f;
}

__device__ __forceinline__ float bf16ToFloat(u16 b) { return __uint_as_float(((u32)b) << 16); }

// Round to nearest even, as the hardware conversion does; NaN stays NaN.
__device__ __forceinline__ u16 floatToBf16(float f) {
    u32 u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (u16)((u >> 16) | 0x40u);
    u32 rounding = 0x7fffu + ((u >> 16) & 1u);
    return (u16)((u + rounding) >> 16);
}

extern "C" __global__ void fillRankF32(float* p, u64 n, u32 seed, u32 rank) {
    for (u64 i = globalThread(); i < n; i += gridThreads()) p[i] = rankValueF32(seed, rank, i);
}

extern "C" __global__ void fillRankBf16(u16* p, u64 n, u32 seed, u32 rank) {
    for (u64 i = globalThread(); i < n; i += gridThreads()) p[i] = floatToBf16(rankValueBf16(seed, rank, i));
}

// out[i] = a[i] + b[i]; out may alias a.
extern "C" __global__ void addF32(float* out, const float* a, const float* b, u64 n) {
    for (u64 i = globalThread(); i < n; i += gridThreads()) out[i] = a[i] + b[i];
}

extern "C" __global__ void addBf16(u16* out, const u16* a, const u16* b, u64 n) {
    for (u64 i = globalThread(); i < n; i += gridThreads()) {
        out[i] = floatToBf16(bf16ToFloat(a[i]) + bf16ToFloat(b[i]));
    }
}

// Checks a collective's output against the inputs' formula, on the GPU, element by element.
// mode 0: all-reduce      out[i] = sum_r value(r, i)
// mode 1: reduce-scatter  out[i] = sum_r value(r, myRank * perRank + i)
// mode 2: all-gather      out[i] = value(i / perRank, i % perRank)
// mode 3: all-to-all      out[i] = value(i / perRank, myRank * perRank + i % perRank)
// float32 sums of these inputs are exact; bfloat16 results may differ from the exact sum by
// ranks * 2^-8 * sum|x| (each partial sum rounded to bfloat16). Sums are formed in float: exact here.
extern "C" __global__ void verifyCollective(const void* out, u64 n, u32 isBf16, u32 seed, u32 ranks, u32 mode,
                                            u64 perRank, u32 myRank, u64* result) {
    u64 bad = 0;
    u64 first = ~0ull;
    for (u64 i = globalThread(); i < n; i += gridThreads()) {
        float got = isBf16 ? bf16ToFloat(((const u16*)out)[i]) : ((const float*)out)[i];
        float want = 0.0f;
        float absSum = 0.0f;
        if (mode <= 1) {
            u64 j = mode == 0 ? i : (u64)myRank * perRank + i;
            for (u32 r = 0; r < ranks; r++) {
                float v = isBf16 ? rankValueBf16(seed, r, j) : rankValueF32(seed, r, j);
                want += v;
                absSum += fabsf(v);
            }
        } else {
            u32 q = (u32)(i / perRank);
            u64 j = mode == 2 ? i % perRank : (u64)myRank * perRank + i % perRank;
            want = isBf16 ? rankValueBf16(seed, q, j) : rankValueF32(seed, q, j);
        }
        float tolerance = (isBf16 && mode <= 1) ? (float)ranks * (1.0f / 256.0f) * absSum : 0.0f;
        if (!(fabsf(got - want) <= tolerance)) {
            bad++;
            if (i < first) first = i;
        }
    }
    if (bad != 0) {
        atomicAdd(&result[0], bad);
        atomicMin(&result[1], first);
    }
}
