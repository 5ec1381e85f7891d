package io.p2pbench.run;

import io.p2pbench.collective.Group;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.results.Kind;
import java.util.Map;

/**
 * Predicted wall seconds of one benchmark fork: the fork's fixed cost (runner start, JVM start,
 * CUDA context, exit), the preset's iterations, and what grows with size. Calibrated on the
 * committed runs of one H200 ({@code results/h200x1-single-r580}, manifest {@code seconds} less
 * the iterations) and on the collective sweep of 2026-12-02T17:21Z, whose {@code phases.json}
 * split each fork into phases (docs/notes/run-overhead.md gives the figures):
 * <ul>
 *   <li>transfers: about 0.9 s per fork at every size for peer copies (fills run on the GPU);
 *       host-device rows grow with the size (host fills and checks of pinned and, slower,
 *       pageable buffers; twice the buffers in both directions);</li>
 *   <li>collectives: about 1.05 s per fork, 0.65 s more for NCCL's communicators, and the CPU
 *       reference check at the end of the trial, which grows with elements x ranks.</li>
 * </ul>
 * The check's constants are those of the check on every core (16 on the node) over at most 128 MiB
 * per output, fitted to the collective sweep of 2026-12-02T17:50Z (committed; 101.5 s wall, teardown
 * 33.1 s against 57.0 s in the single-core sweep of 17:21Z).
 */
public final class TimePredictor {
    /** Fixed seconds of a transfer fork beyond its iterations (0.85 s median at small sizes; 0.9 centres the quick reruns). */
    public static final double TRANSFER_FORK_SECONDS = 0.9;
    /** Fixed seconds of a collective fork beyond its iterations (ring all-reduce at 1 MiB). */
    public static final double COLLECTIVE_FORK_SECONDS = 1.05;
    /** NCCL's communicators, set up and destroyed in every fork. */
    public static final double NCCL_INIT_SECONDS = 0.65;
    /** Host-device rows: seconds per byte, pinned, one direction (host fill and check). */
    static final double PINNED_SECONDS_PER_BYTE = 0.8e-9;
    /** Host-device rows: seconds per byte, pageable, one direction. */
    static final double PAGEABLE_SECONDS_PER_BYTE = 2.2e-9;
    /** Host-device rows in both directions, pinned. */
    static final double PINNED_BIDIR_SECONDS_PER_BYTE = 2.0e-9;
    /** Host-device rows in both directions, pageable. */
    static final double PAGEABLE_BIDIR_SECONDS_PER_BYTE = 6.8e-9;
    /** CPU reference check, nanoseconds per checked element and rank, float32 (all cores; sweep of 17:50Z). */
    static final double CHECK_NANOS_FLOAT32 = 3.0;
    /** CPU reference check, nanoseconds per checked element and rank, bfloat16 (all cores; sweep of 17:50Z). */
    static final double CHECK_NANOS_BFLOAT16 = 6.0;

    private TimePredictor() {}

    /** A transfer fork: fixed cost, iterations, and the host side's size-dependent work. */
    public static double transfer(Kind kind, Preset.Timing timing, long size, boolean pageable) {
        double perByte = switch (kind) {
            case HOST -> pageable ? PAGEABLE_SECONDS_PER_BYTE : PINNED_SECONDS_PER_BYTE;
            case HOST_BIDIR -> pageable ? PAGEABLE_BIDIR_SECONDS_PER_BYTE : PINNED_BIDIR_SECONDS_PER_BYTE;
            default -> 0.0;
        };
        return TRANSFER_FORK_SECONDS + timing.seconds() + size * perByte;
    }

    /** A collective fork: fixed cost, NCCL's communicators if any, iterations, and the CPU reference check. */
    public static double collective(Preset.Timing timing, long size, DataType type, int ranks, boolean nccl) {
        double elements = io.p2pbench.collective.ResultCheck.checkedElements(size / type.bytes(), type.bytes());
        double check = elements * ranks * (type == DataType.FLOAT32 ? CHECK_NANOS_FLOAT32 : CHECK_NANOS_BFLOAT16) * 1e-9;
        return COLLECTIVE_FORK_SECONDS + (nccl ? NCCL_INIT_SECONDS : 0) + timing.seconds() + check;
    }

    /** An activation exchange: measured like a transfer fork (no size growth seen at 32 MiB). */
    public static double exchange(Preset.Timing timing) {
        return TRANSFER_FORK_SECONDS + timing.seconds();
    }

    /**
     * A partition-study fork: a transfer fork's fixed cost, the iterations, and what a step adds around
     * them (weights, KV and graph setup, and the verification after each iteration). Measured on the
     * H200 node, DENSE_8B over 0,0 at quick timing (17:27Z): decode forks 1.0-1.2 s, prefill 3.7-4.5 s
     * (host-staged TP 7.4 s), requests 1.9-2.6 s.
     */
    public static double partition(Preset.Timing timing, boolean prefill, boolean request) {
        return TRANSFER_FORK_SECONDS + timing.seconds() + (prefill ? 3.0 : 0.0) + (request ? 1.0 : 0.0);
    }

    /**
     * The prediction for a planned combination as a manifest records it ({@code kind} label,
     * {@code params}, size), for checking the predictor against measured runs.
     */
    public static double forEntry(String kind, Map<String, String> params, long size, Preset.Timing timing) {
        Kind k = Kind.of(kind);
        return switch (k) {
            case PEER, PEER_BIDIR, HOST, HOST_BIDIR -> transfer(k, timing, size, "PAGEABLE".equals(params.get("memory")));
            case ALLREDUCE_RING, NCCL -> collective(timing, size, DataType.valueOf(params.get("dtype")),
                    Group.parse(params.get("group")).size(), k == Kind.NCCL);
            case EXCHANGE -> exchange(timing);
            case PARTITION -> partition(timing, "PREFILL".equals(params.get("phase")) && !"request".equals(params.get("metric")),
                    false);
        };
    }
}
