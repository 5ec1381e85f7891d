package io.p2pbench.transfer;

import io.p2pbench.cuda.CudaDevices;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.topology.HostProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Host memory placement for host-device copies. The placement is set from outside the JVM: {@code
 * p2pbench run} starts the fork under {@code numactl --membind=N --cpunodebind=N}. Inside the fork
 * this class checks that the binding matches the label, so a mislabelled figure cannot happen.
 */
public final class NumaBinding {
    private NumaBinding() {}

    /** Throws {@link BenchmarkSkipped} unless this process's memory really sits where {@code placement} says. */
    public static void require(NumaPlacement placement, int device) {
        HostProbe host = new HostProbe();
        int nodes = host.numaNodes();
        Integer gpuNode = host.pciNumaNode(CudaDevices.pciBusId(device));
        Optional<String> reason = Feasibility.numa(placement, nodes, gpuNode);
        if (reason.isPresent()) {
            throw new BenchmarkSkipped(SkipCause.NUMA, reason.get());
        }
        if (nodes <= 1) {
            return;
        }
        String allowed = memsAllowed();
        boolean local = allowed.equals(Integer.toString(gpuNode));
        boolean remote = !allowed.isEmpty() && !allowed.contains(",") && !allowed.contains("-") && !local;
        if (placement == NumaPlacement.LOCAL ? !local : !remote) {
            throw new BenchmarkSkipped(SkipCause.NUMA, "host memory " + placement + " to GPU" + device + " (NUMA node " + gpuNode
                    + ") needs this fork bound to one " + (placement == NumaPlacement.LOCAL ? "matching" : "other")
                    + " node, but it may use nodes " + allowed + "; run it through 'p2pbench run', which binds forks "
                    + "with numactl");
        }
    }

    static String memsAllowed() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Mems_allowed_list:")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (IOException e) {
            return "";
        }
        return "";
    }
}
