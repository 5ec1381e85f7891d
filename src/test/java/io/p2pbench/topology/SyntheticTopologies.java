package io.p2pbench.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;

/**
 * Machines the suite must understand without having one: built from raw facts (NVLink lists, NVML
 * ancestor levels, peer-access answers) and classified by the production code.
 */
public final class SyntheticTopologies {
    private SyntheticTopologies() {}

    static HostInfo host(int sockets, int numa) {
        return new HostInfo("Synthetic CPU", sockets, numa, "off", "none", "Test OS", "6.0", "580.159.04",
                "13.0", "13.0", "2.28.3", "13.0", "Test JVM");
    }

    static String bus(int i) {
        return String.format("0000:%02x:00.0", 0x18 + i * 0x10);
    }

    static GpuInfo gpu(int i, String name, int numa, String cpus, List<GpuInfo.NvLinkInfo> links) {
        return new GpuInfo(i, name, String.format("GPU-%08d-0000-0000-0000-000000000000", i), bus(i), "9.0",
                150_754_820_096L, 132, 3, 5, 5, 16, 16, numa, cpus, links, links.isEmpty() ? "NOT_SUPPORTED" : null);
    }

    static Topology build(List<GpuInfo> gpus, HostInfo host, BiFunction<Integer, Integer, Integer> ancestor,
                          BiPredicate<Integer, Integer> peer) {
        List<PairInfo> pairs = new ArrayList<>();
        for (GpuInfo a : gpus) {
            for (GpuInfo b : gpus) {
                if (a.index() == b.index()) {
                    pairs.add(new PairInfo(a.index(), b.index(), false, null, null, null, LinkClass.SELF, null));
                } else {
                    Integer level = ancestor.apply(a.index(), b.index());
                    boolean can = peer.test(a.index(), b.index());
                    pairs.add(new PairInfo(a.index(), b.index(), can, 0, can, can,
                            LinkClassifier.classify(a, b, level), level));
                }
            }
        }
        return new Topology("0.1.0", "2026-12-02T00:00:00Z", host, gpus, pairs, "", List.of()).withFingerprint();
    }

    /** 8 H200 SXM on NVSwitch: 18 NVLinks each, all to switches; two sockets. */
    public static Topology nvswitch8() {
        List<GpuInfo> gpus = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            List<GpuInfo.NvLinkInfo> links = new ArrayList<>();
            for (int l = 0; l < 18; l++) {
                links.add(new GpuInfo.NvLinkInfo(l, true, 4, String.format("0000:%02x:00.0", 0xa0 + l % 4), "switch"));
            }
            gpus.add(gpu(i, "NVIDIA H200", i < 4 ? 0 : 1, i < 4 ? "0-47,96-143" : "48-95,144-191", links));
        }
        return build(gpus, host(2, 2), (a, b) -> (a < 4) == (b < 4) ? 40 : 50, (a, b) -> true);
    }

    /** 8 PCIe GPUs, 0-3 behind one switch on socket 0, 4-7 behind another on socket 1; P2P only within a switch. */
    public static Topology pcie8TwoSwitches() {
        List<GpuInfo> gpus = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            gpus.add(gpu(i, "NVIDIA L40S", i < 4 ? 0 : 1, i < 4 ? "0-31" : "32-63", List.of()));
        }
        return build(gpus, host(2, 2), (a, b) -> (a < 4) == (b < 4) ? 10 : 50, (a, b) -> (a < 4) == (b < 4));
    }

    /** 2 GPUs under the host bridge that cannot do P2P (a typical VM or consumer board). */
    public static Topology twoWithoutP2p() {
        List<GpuInfo> gpus = List.of(gpu(0, "NVIDIA RTX 6000 Ada Generation", 0, "0-15", List.of()),
                gpu(1, "NVIDIA RTX 6000 Ada Generation", 0, "0-15", List.of()));
        return build(gpus, host(1, 1), (a, b) -> 30, (a, b) -> false);
    }

    /** Writes the synthetic machines as topology JSON into the folder {@code args[0]}. */
    public static void main(String[] args) throws java.io.IOException {
        java.nio.file.Path dir = java.nio.file.Path.of(args[0]);
        java.nio.file.Files.createDirectories(dir);
        for (Topology t : List.of(nvswitch8(), pcie8TwoSwitches(), twoWithoutP2p(), singleH200())) {
            java.nio.file.Files.writeString(dir.resolve(t.fingerprint() + ".json"), TopologyJson.write(t));
        }
    }

    /** 1 H200, like our reference node. */
    public static Topology singleH200() {
        return build(List.of(gpu(0, "NVIDIA H200", -1, null, List.of())), host(1, 1), (a, b) -> null, (a, b) -> false);
    }
}
