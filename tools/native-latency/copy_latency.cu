// copy_latency.cu - native reference for p2pbench's small-copy latency benchmark.
//
// What it measures: the host-observed latency of one tiny asynchronous copy,
// timed exactly like the Java benchmark does it.  For every case, on one stream
// created with cudaStreamCreateWithFlags(cudaStreamNonBlocking) on device 0:
//
//     t0 = clock_gettime(CLOCK_MONOTONIC)
//     cudaMemcpyAsync(dst, src, bytes, kind, stream)   // PEER: cudaMemcpyPeerAsync
//     cudaStreamSynchronize(stream)
//     t1 = clock_gettime(CLOCK_MONOTONIC)              // sample = t1 - t0
//
// 10,000 untimed warm-up iterations, then N timed ones.  Cases:
//   D2D   device 0 -> device 0, both buffers cudaMalloc'd
//   H2D   pinned host (cudaHostAlloc) -> device 0
//   D2H   device 0 -> pinned host (cudaHostAlloc)
//   PEER  cudaMemcpyPeerAsync device 0 -> device P (P = 0 unless -p is given;
//         peer access is enabled first when cudaDeviceCanAccessPeer allows it)
// Reported per case, in microseconds: p50 p90 p99 p99.9 min mean max.
// Percentiles use the R-7 (numpy "linear") estimator on the sorted samples:
//   h = (n-1)*p, v = s[floor(h)] + (h - floor(h)) * (s[floor(h)+1] - s[floor(h)]).
//
// Build:  tools/native-latency/build.sh [out]     (default .carry/native/copy_latency)
//   i.e.  nvcc -O2 -gencode arch=compute_90,code=sm_90 -o out copy_latency.cu
// Run:    copy_latency [-n iterations] [-b bytes] [-p peer_device] [-j]
//   -n  timed iterations per case (default 200000)   -b  bytes per copy (default 4)
//   -p  destination device of the PEER case (default 0)
//   -j  print one JSON object per case (JSON Lines) instead of text lines

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <time.h>
#include <unistd.h>
#include <vector>

static const int kWarmup = 10000;
static const char *kEstimator =
    "R-7 (numpy linear): h=(n-1)p, interpolate sorted[floor(h)]..sorted[floor(h)+1]";

// Abort with a message naming the failing CUDA call.
#define CHECK(call) check((call), #call, __FILE__, __LINE__)
static void check(cudaError_t err, const char *call, const char *file, int line) {
    if (err != cudaSuccess) {
        fprintf(stderr, "CUDA error: %s failed: %s (%s) at %s:%d\n", call,
                cudaGetErrorString(err), cudaGetErrorName(err), file, line);
        exit(1);
    }
}

static inline int64_t now_ns() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// R-7 percentile of an ascending-sorted vector, p in [0, 1].
static double percentile(const std::vector<double> &s, double p) {
    double h = (double)(s.size() - 1) * p;
    size_t lo = (size_t)std::floor(h);
    if (lo + 1 >= s.size()) return s.back();
    return s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]);
}

struct Case {
    const char *name;
    void *dst, *src;
    cudaMemcpyKind kind;
    bool peer;        // use cudaMemcpyPeerAsync(dst, dstDevice, src, 0, ...)
    int dstDevice;
};

// One copy plus the synchronize that waits for it: the timed unit.
static inline void issue(const Case &c, size_t bytes, cudaStream_t stream) {
    if (c.peer)
        CHECK(cudaMemcpyPeerAsync(c.dst, c.dstDevice, c.src, 0, bytes, stream));
    else
        CHECK(cudaMemcpyAsync(c.dst, c.src, bytes, c.kind, stream));
    CHECK(cudaStreamSynchronize(stream));
}

static void run(const Case &c, size_t bytes, long iters, cudaStream_t stream,
                bool json, const char *gpu, bool peerAccess) {
    for (int i = 0; i < kWarmup; i++) issue(c, bytes, stream);

    std::vector<double> us(iters);
    for (long i = 0; i < iters; i++) {
        int64_t t0 = now_ns();
        issue(c, bytes, stream);
        int64_t t1 = now_ns();
        us[i] = (double)(t1 - t0) / 1000.0;
    }
    double sum = 0;
    for (double v : us) sum += v;
    std::sort(us.begin(), us.end());
    double p50 = percentile(us, 0.50), p90 = percentile(us, 0.90);
    double p99 = percentile(us, 0.99), p999 = percentile(us, 0.999);
    double mean = sum / (double)iters;

    if (json) {
        printf("{\"case\":\"%s\",\"bytes\":%zu,\"iterations\":%ld,\"warmup\":%d,"
               "\"unit\":\"us\",\"p50\":%.4f,\"p90\":%.4f,\"p99\":%.4f,\"p99.9\":%.4f,"
               "\"min\":%.4f,\"mean\":%.4f,\"max\":%.4f,\"percentile_estimator\":\"%s\","
               "\"clock\":\"CLOCK_MONOTONIC\",\"stream\":\"cudaStreamNonBlocking\","
               "\"src_device\":0,\"dst_device\":%d,\"peer_access\":%s,\"gpu\":\"%s\"}\n",
               c.name, bytes, iters, kWarmup, p50, p90, p99, p999, us.front(), mean,
               us.back(), kEstimator, c.dstDevice,
               c.peer ? (peerAccess ? "true" : "false") : "null", gpu);
    } else {
        printf("%-4s bytes=%zu n=%ld  p50=%.3f p90=%.3f p99=%.3f p99.9=%.3f "
               "min=%.3f mean=%.3f max=%.3f us\n",
               c.name, bytes, iters, p50, p90, p99, p999, us.front(), mean, us.back());
    }
    fflush(stdout);
}

int main(int argc, char **argv) {
    long iters = 200000;
    long bytesArg = 4;
    int peerDev = 0;
    bool json = false;
    int opt;
    while ((opt = getopt(argc, argv, "n:b:p:jh")) != -1) {
        switch (opt) {
            case 'n': iters = atol(optarg); break;
            case 'b': bytesArg = atol(optarg); break;
            case 'p': peerDev = atoi(optarg); break;
            case 'j': json = true; break;
            default:
                fprintf(stderr, "usage: %s [-n iterations] [-b bytes] [-p peer_device] [-j]\n",
                        argv[0]);
                return opt == 'h' ? 0 : 2;
        }
    }
    if (iters < 1 || bytesArg < 1 || peerDev < 0) {
        fprintf(stderr, "need -n >= 1, -b >= 1, -p >= 0\n");
        return 2;
    }
    size_t bytes = (size_t)bytesArg;

    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    if (peerDev >= count) {
        fprintf(stderr, "-p %d: only %d device(s) visible\n", peerDev, count);
        return 2;
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    CHECK(cudaSetDevice(0));

    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    void *dA, *dB, *hPinned, *dPeer;
    CHECK(cudaMalloc(&dA, bytes));
    CHECK(cudaMalloc(&dB, bytes));
    CHECK(cudaMemset(dA, 1, bytes));
    CHECK(cudaMemset(dB, 0, bytes));
    CHECK(cudaHostAlloc(&hPinned, bytes, cudaHostAllocDefault));
    memset(hPinned, 2, bytes);

    bool peerAccess = false;
    if (peerDev == 0) {
        dPeer = dB;
    } else {
        int can = 0;
        CHECK(cudaDeviceCanAccessPeer(&can, 0, peerDev));
        if (can) {
            CHECK(cudaDeviceEnablePeerAccess(peerDev, 0));
            peerAccess = true;
        }
        CHECK(cudaSetDevice(peerDev));
        CHECK(cudaMalloc(&dPeer, bytes));
        CHECK(cudaMemset(dPeer, 0, bytes));
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaSetDevice(0));
    }

    if (!json)
        printf("# copy_latency: GPU0=%s, warm-up %d, stream non-blocking, clock CLOCK_MONOTONIC, "
               "percentiles %s\n", prop.name, kWarmup, kEstimator);

    const Case cases[] = {
        {"D2D", dB, dA, cudaMemcpyDeviceToDevice, false, 0},
        {"H2D", dA, hPinned, cudaMemcpyHostToDevice, false, 0},
        {"D2H", hPinned, dA, cudaMemcpyDeviceToHost, false, 0},
        {"PEER", dPeer, dA, cudaMemcpyDefault, true, peerDev},
    };
    for (const Case &c : cases) run(c, bytes, iters, stream, json, prop.name, peerAccess);

    if (peerDev != 0) {
        CHECK(cudaSetDevice(peerDev));
        CHECK(cudaFree(dPeer));
        CHECK(cudaSetDevice(0));
    }
    CHECK(cudaFreeHost(hPinned));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dA));
    CHECK(cudaStreamDestroy(stream));
    return 0;
}
