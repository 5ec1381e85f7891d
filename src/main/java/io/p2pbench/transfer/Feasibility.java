package io.p2pbench.transfer;

import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.PairInfo;
import io.p2pbench.topology.Topology;
import java.util.Optional;

/**
 * Whether a transfer can run on a machine, and if not, the reason recorded in its place. Decided
 * from the topology alone, so plans for machines you do not have (a topology JSON) say the same as
 * the machine itself would.
 */
public final class Feasibility {
    private Feasibility() {}

    /** Why {@code path} cannot run on {@code pair}, or empty if it can. */
    public static Optional<String> peerCopy(CopyPath path, GpuPair pair, Topology topology) {
        if (pair.sameGpu()) {
            return switch (path) {
                case CE_NO_P2P -> Optional.of("source and destination are the same GPU: there is no peer access "
                        + "to turn off");
                case CE_P2P_WRITE, SM_P2P_WRITE -> Optional.of("source and destination are the same GPU: the write "
                        + "variant would repeat the read variant (one GPU issues both)");
                default -> Optional.empty();
            };
        }
        if (path.needsPeerAccess()) {
            PairInfo there = topology.pair(pair.src(), pair.dst()).orElse(null);
            PairInfo back = topology.pair(pair.dst(), pair.src()).orElse(null);
            boolean ok = there != null && back != null && there.canAccessPeer() && back.canAccessPeer();
            if (!ok) {
                return Optional.of("no peer access between these GPUs (cudaDeviceCanAccessPeer is " + can(there)
                        + " one way and " + can(back) + " the other; link " + (there == null ? "?" : there.link().label())
                        + ")");
            }
        }
        return Optional.empty();
    }

    private static String can(PairInfo p) {
        return p == null ? "?" : p.canAccessPeer() ? "1" : "0";
    }

    /** Why host memory placement {@code numa} cannot be measured for a GPU, or empty. */
    public static Optional<String> numa(NumaPlacement numa, int numaNodes, Integer gpuNumaNode) {
        if (numa == NumaPlacement.REMOTE && numaNodes <= 1) {
            return Optional.of("this host has one NUMA node: no host memory is remote to the GPU");
        }
        if (numaNodes > 1 && (gpuNumaNode == null || gpuNumaNode < 0)) {
            return Optional.of("the platform does not say which NUMA node the GPU hangs off (numa_node = -1), "
                    + "so local and remote cannot be told apart");
        }
        return Optional.empty();
    }

    /**
     * Device bytes one GPU needs for a peer copy of {@code bytes} (source and destination per lane);
     * {@link Long#MAX_VALUE} where that would not fit a long, so a fit check cannot wrap into "fits".
     */
    public static long deviceBytesPerGpu(GpuPair pair, long bytes, boolean bidirectional) {
        int buffers = (bidirectional ? 2 : 1) * (pair.sameGpu() ? 2 : 1);
        try {
            return Math.multiplyExact(bytes, (long) buffers);
        } catch (ArithmeticException tooLarge) {
            return Long.MAX_VALUE;
        }
    }
}
