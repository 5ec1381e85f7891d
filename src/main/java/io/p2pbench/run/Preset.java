package io.p2pbench.run;

import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.spec.Metric;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.Sizes;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a run covers and how long each benchmark is measured. Cost grows gently with GPU count: the
 * size sweep runs for one representative pair per link class (plus the device-local pair 0-0), and
 * only the pair matrix, at one large size, grows with the square of the GPU count.
 *
 * @param sweepSizes sizes of the sweep
 * @param sweepPaths peer paths of the sweep (unidirectional)
 * @param bidirectionalSweepPaths peer paths also swept in both directions at once
 * @param matrixSize the size of the pair matrix
 * @param matrixPaths paths measured over every ordered pair
 * @param bidirectionalMatrix whether the matrix is also measured in both directions at once
 * @param hostSizes sizes of the host-device rows
 * @param collectiveSizes buffer sizes of the all-reduce and NCCL rows
 * @param collectiveTypes element types of the all-reduce and NCCL rows
 * @param collectiveLatency whether every collective row also gets a latency benchmark (else only
 *     float32 all-reduces over P2P)
 * @param bandwidth timing of bandwidth benchmarks
 * @param latency timing of latency benchmarks
 */
public record Preset(String name, List<Long> sweepSizes, Set<CopyPath> sweepPaths, Set<CopyPath> bidirectionalSweepPaths,
                     long matrixSize, Set<CopyPath> matrixPaths, boolean bidirectionalMatrix, List<Long> hostSizes,
                     List<Long> collectiveSizes, Set<DataType> collectiveTypes, boolean collectiveLatency,
                     Timing bandwidth, Timing latency) {

    /** Warm-up and measurement of one benchmark (one measurement iteration, see DeviceBandwidth). */
    public record Timing(int warmupIterations, int warmupMillis, int measurementMillis) {
        /** Seconds of iterations. */
        public double seconds() {
            return (warmupIterations * warmupMillis + measurementMillis) / 1000.0;
        }
    }

    /** A smoke-test run: a few sizes, short iterations (minutes on one GPU). */
    public static final Preset QUICK = new Preset("quick",
            List.of(4 * Sizes.KIB, Sizes.MIB, 64 * Sizes.MIB),
            EnumSet.allOf(CopyPath.class), EnumSet.of(CopyPath.CE_P2P_READ),
            256 * Sizes.MIB, EnumSet.of(CopyPath.CE_P2P_READ), false,
            List.of(4 * Sizes.KIB, Sizes.MIB, 64 * Sizes.MIB),
            List.of(64 * Sizes.MIB), EnumSet.allOf(DataType.class), false,
            new Timing(1, 100, 300), new Timing(1, 100, 500));

    /** The full size sweep 4 KiB to 1 GiB on every path, both directions, the matrix on every path. */
    public static final Preset STANDARD = new Preset("standard",
            Sizes.powersOfTwo(4 * Sizes.KIB, Sizes.GIB),
            EnumSet.allOf(CopyPath.class), EnumSet.allOf(CopyPath.class),
            256 * Sizes.MIB, EnumSet.allOf(CopyPath.class), true,
            Sizes.powersOfTwo(4 * Sizes.KIB, Sizes.GIB),
            Sizes.powersOfTwo(Sizes.MIB, 4 * Sizes.GIB), EnumSet.allOf(DataType.class), true,
            new Timing(2, 200, 1000), new Timing(1, 200, 1000));

    /** Standard from 4 bytes up, with longer iterations. */
    public static final Preset FULL = new Preset("full",
            Sizes.powersOfTwo(4, Sizes.GIB),
            EnumSet.allOf(CopyPath.class), EnumSet.allOf(CopyPath.class),
            256 * Sizes.MIB, EnumSet.allOf(CopyPath.class), true,
            Sizes.powersOfTwo(4, Sizes.GIB),
            Sizes.powersOfTwo(Sizes.MIB, 4 * Sizes.GIB), EnumSet.allOf(DataType.class), true,
            new Timing(3, 500, 3000), new Timing(2, 500, 3000));

    /** The preset named {@code name}; throws naming the accepted ones. */
    public static Preset named(String name) {
        return switch (name == null ? "" : name.toLowerCase(Locale.ROOT)) {
            case "quick" -> QUICK;
            case "standard" -> STANDARD;
            case "full" -> FULL;
            default -> throw new IllegalArgumentException("unknown preset '" + name + "'; use quick, standard or full");
        };
    }

    /** The timing of benchmarks of {@code metric}. */
    public Timing timing(Metric metric) {
        return metric == Metric.LATENCY ? latency : bandwidth;
    }

    /** This preset with other timings (what a run's manifest recorded). */
    public Preset withTimings(Timing bandwidthTiming, Timing latencyTiming) {
        return new Preset(name, sweepSizes, sweepPaths, bidirectionalSweepPaths, matrixSize, matrixPaths,
                bidirectionalMatrix, hostSizes, collectiveSizes, collectiveTypes, collectiveLatency, bandwidthTiming,
                latencyTiming);
    }

    /** This preset with other sweep, host and collective sizes. */
    public Preset withSizes(List<Long> sizes) {
        return new Preset(name, sizes, sweepPaths, bidirectionalSweepPaths, matrixSize, matrixPaths,
                bidirectionalMatrix, sizes, sizes, collectiveTypes, collectiveLatency, bandwidth, latency);
    }
}
