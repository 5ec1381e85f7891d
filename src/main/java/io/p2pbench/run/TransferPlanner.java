package io.p2pbench.run;

import io.p2pbench.cuda.Binding;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Exchange;
import io.p2pbench.spec.Kind;
import io.p2pbench.spec.Metric;
import io.p2pbench.spec.HostCopy;
import io.p2pbench.spec.HostCopyBidirectional;
import io.p2pbench.spec.NcclOp;
import io.p2pbench.spec.PartitionRun;
import io.p2pbench.spec.PeerCopy;
import io.p2pbench.spec.PeerCopyBidirectional;
import io.p2pbench.spec.Ring;
import io.p2pbench.spec.Serving;
import io.p2pbench.spec.Skip;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.spec.WorkloadSpec;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.Feasibility;
import io.p2pbench.transfer.HostDirection;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.NumaPlacement;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The copy rows of a plan: peer copies (sweep and matrix), host-device copies, and the binding comparison. */
final class TransferPlanner {
    private TransferPlanner() {}

    /** The sweep over {@code sweepPairs} and the matrix over {@code matrixPairs}, for the {@code wanted} paths. */
    static void planPeers(Topology t, Preset p, List<GpuPair> sweepPairs, List<GpuPair> matrixPairs,
                          Set<CopyPath> wanted, Map<String, Combination> plan) {
        for (GpuPair pair : sweepPairs) {
            for (CopyPath path : p.sweepPaths()) {
                if (!wanted.contains(path)) {
                    continue;
                }
                for (long size : p.sweepSizes()) {
                    add(plan, peer(t, p, pair, path, size, Metric.BANDWIDTH, false, "sweep"));
                    add(plan, peer(t, p, pair, path, size, Metric.LATENCY, false, "sweep"));
                    if (p.bidirectionalSweepPaths().contains(path) && pair.src() <= pair.dst()) {
                        add(plan, peer(t, p, pair, path, size, Metric.BANDWIDTH, true, "sweep"));
                    }
                }
            }
        }
        for (CopyPath path : p.matrixPaths()) {
            if (!wanted.contains(path)) {
                continue;
            }
            for (GpuPair pair : matrixPairs) {
                add(plan, peer(t, p, pair, path, p.matrixSize(), Metric.BANDWIDTH, false, Combination.MATRIX_GROUP));
                if (p.bidirectionalMatrix() && pair.src() <= pair.dst()) {
                    add(plan, peer(t, p, pair, path, p.matrixSize(), Metric.BANDWIDTH, true, Combination.MATRIX_GROUP));
                }
            }
        }
    }

    static void planHost(Topology t, Preset p, Map<String, Combination> plan) {
        List<Integer> devices = t.gpus().stream().map(GpuInfo::index).toList();
        int numaNodes = t.host().numaNodes();
        for (int device : devices) {
            // The full sweep on the first GPU; every other GPU at the matrix size, to catch one bad link.
            List<Long> sizes = device == devices.get(0) ? p.hostSizes() : List.of(p.matrixSize());
            Integer gpuNuma = t.gpu(device).numaNode();
            for (NumaPlacement numa : NumaPlacement.values()) {
                Optional<Skip> numaSkip = Feasibility.numa(numa, numaNodes, gpuNuma)
                        .map(why -> new Skip(SkipCause.NUMA, why));
                if (numaSkip.isPresent() && numa == NumaPlacement.REMOTE) {
                    // One row says why, not one per size.
                    add(plan, host(p, new HostCopy(device, HostDirection.H2D, HostMemory.PINNED, numa, p.matrixSize(),
                            Binding.JAVACPP_RUNTIME), Metric.BANDWIDTH, numaSkip.get()));
                    continue;
                }
                for (long size : sizes) {
                    for (HostMemory memory : HostMemory.values()) {
                        for (HostDirection dir : HostDirection.values()) {
                            HostCopy copy = new HostCopy(device, dir, memory, numa, size, Binding.JAVACPP_RUNTIME);
                            add(plan, host(p, copy, Metric.BANDWIDTH, numaSkip.orElse(null)));
                            add(plan, host(p, copy, Metric.LATENCY, numaSkip.orElse(null)));
                        }
                        add(plan, hostBidirectional(p, new HostCopyBidirectional(device, memory, numa, size),
                                numaSkip.orElse(null)));
                    }
                }
            }
        }
    }

    /**
     * The binding comparison: for the small latency rows of the first sweep pair's CE_P2P_READ copy
     * and of the first GPU's pinned host copies (local memory), the same copy through JCuda's driver
     * API, planned right after its JavaCPP row (group {@code binding}).
     */
    static void planBindings(GpuPair firstPair, int firstDevice, Map<String, Combination> plan) {
        List<Combination> ordered = new ArrayList<>();
        for (Combination c : plan.values()) {
            ordered.add(c);
            if (compared(WorkloadSpec.of(c), firstPair, firstDevice) && Metric.LATENCY.label().equals(c.metric())
                    && c.sizeBytes() <= RunPlanner.BINDING_MAX_BYTES && !c.plannedSkip()) {
                // Right after its JavaCPP row: on a drifting VM, minutes apart is already a difference.
                ordered.add(jcudaTwin(c));
            }
        }
        plan.clear();
        for (Combination c : ordered) {
            add(plan, c);
        }
    }

    /**
     * Whether the binding comparison covers {@code spec}: JavaCPP's CE_P2P_READ copy of {@code firstPair} and its pinned
     * local host copies of {@code firstDevice}.
     */
    private static boolean compared(WorkloadSpec spec, GpuPair firstPair, int firstDevice) {
        return spec.accept(new WorkloadSpec.Cases<Boolean>() {
            @Override
            public Boolean peerCopy(PeerCopy s) {
                return s.path() == CopyPath.CE_P2P_READ && s.pair().equals(firstPair)
                        && s.binding() == Binding.JAVACPP_RUNTIME;
            }

            @Override
            public Boolean peerCopyBidirectional(PeerCopyBidirectional s) {
                return false;
            }

            @Override
            public Boolean hostCopy(HostCopy s) {
                return s.memory() == HostMemory.PINNED && s.numa() == NumaPlacement.LOCAL && s.device() == firstDevice
                        && s.binding() == Binding.JAVACPP_RUNTIME;
            }

            @Override
            public Boolean hostCopyBidirectional(HostCopyBidirectional s) {
                return false;
            }

            @Override
            public Boolean ring(Ring s) {
                return false;
            }

            @Override
            public Boolean ncclOp(NcclOp s) {
                return false;
            }

            @Override
            public Boolean exchange(Exchange s) {
                return false;
            }

            @Override
            public Boolean partitionRun(PartitionRun s) {
                return false;
            }

            @Override
            public Boolean serving(Serving s) {
                return false;
            }
        });
    }

    /**
     * The same latency row with its copies and waits through JCuda's driver API (only {@code binding} differs), its
     * id the row's with {@code jcuda-} after the metric tag.
     *
     * @throws IllegalArgumentException for a row that is not a one-way copy's latency row
     */
    static Combination jcudaTwin(Combination c) {
        if (Metric.of(c.metric()) != Metric.LATENCY) {
            throw new IllegalArgumentException(c.id() + " is not a latency row of kind " + c.kind());
        }
        return WorkloadSpec.of(c).accept(new WorkloadSpec.Cases<Combination>() {
            @Override
            public Combination peerCopy(PeerCopy s) {
                return twin(s.with(Binding.JCUDA_DRIVER), peerIdTail(s.path(), s.pair(), s.sizeBytes()));
            }

            @Override
            public Combination peerCopyBidirectional(PeerCopyBidirectional s) {
                throw notOneWay();
            }

            @Override
            public Combination hostCopy(HostCopy s) {
                return twin(s.with(Binding.JCUDA_DRIVER), hostIdTail(s));
            }

            @Override
            public Combination hostCopyBidirectional(HostCopyBidirectional s) {
                throw notOneWay();
            }

            @Override
            public Combination ring(Ring s) {
                throw notOneWay();
            }

            @Override
            public Combination ncclOp(NcclOp s) {
                throw notOneWay();
            }

            @Override
            public Combination exchange(Exchange s) {
                throw notOneWay();
            }

            @Override
            public Combination partitionRun(PartitionRun s) {
                throw notOneWay();
            }

            @Override
            public Combination serving(Serving s) {
                throw notOneWay();
            }

            private Combination twin(WorkloadSpec twin, String idTail) {
                String id = twin.kind().label() + "-" + Metric.LATENCY.idTag() + "-jcuda-" + idTail;
                return twin.combination(id, Metric.LATENCY, "binding", c.link(), c.sizeBytes(), c.singleGpu(), null,
                        c.predictedSeconds());
            }

            private IllegalArgumentException notOneWay() {
                return new IllegalArgumentException(c.id() + " is not a one-way copy; only those have a JCuda twin");
            }
        });
    }

    /** What a peer copy's id says after its metric tag: path, pair and size. */
    private static String peerIdTail(CopyPath path, GpuPair pair, long size) {
        return path + "-" + pair.src() + "-" + pair.dst() + "-" + Sizes.compact(size);
    }

    /** What a host copy's id says after its metric tag: direction, memory, placement, GPU and size. */
    private static String hostIdTail(HostCopy copy) {
        return copy.direction() + "-" + copy.memory() + "-" + copy.numa() + "-gpu" + copy.device() + "-"
                + Sizes.compact(copy.sizeBytes());
    }

    private static Combination peer(Topology t, Preset p, GpuPair pair, CopyPath path, long size, Metric metric,
                                    boolean bidirectional, String group) {
        String id = (bidirectional ? "peer-bidir-" : "peer-" + metric.idTag() + "-") + peerIdTail(path, pair, size);
        // Feasibility refuses a pair of one GPU only for a variant that would measure nothing new there.
        Skip skip = Feasibility.peerCopy(path, pair, t)
                .map(why -> new Skip(pair.sameGpu() ? SkipCause.NOT_APPLICABLE : SkipCause.NO_PEER_ACCESS, why))
                .orElse(null);
        if (skip == null) {
            long need = Feasibility.deviceBytesPerGpu(pair, size, bidirectional);
            long have = Math.min(t.gpu(pair.src()).memoryBytes(), t.gpu(pair.dst()).memoryBytes());
            if (need > have) {
                skip = new Skip(SkipCause.DOES_NOT_FIT, "too little memory: needs " + Sizes.format(need)
                        + " per GPU, GPU has " + Sizes.format(have));
            }
        }
        String link = t.pair(pair.src(), pair.dst()).map(pi -> pi.link().label()).orElse("?");
        // One-way copies name their Java binding (JavaCPP's; planBindings adds the JCuda twins).
        WorkloadSpec spec = bidirectional ? new PeerCopyBidirectional(pair, path, size)
                : new PeerCopy(pair, path, size, Binding.JAVACPP_RUNTIME);
        return spec.combination(id, metric, group, link, size, pair.sameGpu(), skip,
                TimePredictor.transfer(spec.kind(), p.timing(metric), size, false));
    }

    private static Combination host(Preset p, HostCopy copy, Metric metric, Skip skip) {
        String id = "host-" + metric.idTag() + "-" + hostIdTail(copy);
        return copy.combination(id, metric, "sweep", "host", copy.sizeBytes(), false, skip,
                TimePredictor.transfer(Kind.HOST, p.timing(metric), copy.sizeBytes(),
                        copy.memory() == HostMemory.PAGEABLE));
    }

    private static Combination hostBidirectional(Preset p, HostCopyBidirectional copy, Skip skip) {
        String id = "host-bidir-" + copy.memory() + "-" + copy.numa() + "-gpu" + copy.device() + "-"
                + Sizes.compact(copy.sizeBytes());
        return copy.combination(id, Metric.BANDWIDTH, "sweep", "host", copy.sizeBytes(), false, skip,
                TimePredictor.transfer(Kind.HOST_BIDIR, p.bandwidth(), copy.sizeBytes(),
                        copy.memory() == HostMemory.PAGEABLE));
    }

    private static void add(Map<String, Combination> plan, Combination c) {
        plan.putIfAbsent(c.id(), c);
    }
}
