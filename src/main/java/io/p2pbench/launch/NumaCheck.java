package io.p2pbench.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this process runs on its GPU's NUMA node. A JVM cannot move itself; the launcher binds it (srun
 * --cpu-bind, mpirun --bind-to numa, numactl in a torchrun script), so a rank only reports what it finds, in its
 * first line and in the job's settings.
 */
final class NumaCheck {
    private NumaCheck() {}

    /**
     * One phrase about the binding of a process whose /proc/self/status is {@code status}, on a host of
     * {@code numaNodes} nodes, with its GPU on {@code gpuNode} (null or negative: unknown).
     */
    static String describe(String status, int numaNodes, Integer gpuNode) {
        if (gpuNode == null || gpuNode < 0) {
            return "the GPU's NUMA node is not known here" + (numaNodes <= 1 ? " (one NUMA node)" : "");
        }
        if (numaNodes <= 1) {
            return "NUMA node " + gpuNode + " (the host's only one)";
        }
        String mems = field(status, "Mems_allowed_list:");
        if (mems.equals(Integer.toString(gpuNode))) {
            return "bound to NUMA node " + gpuNode + ", the GPU's";
        }
        return "NOT bound to the GPU's NUMA node " + gpuNode + " (memory allowed on nodes " + (mems.isEmpty() ? "?" : mems)
                + "); bind ranks with srun --cpu-bind=ldoms, mpirun --bind-to numa or numactl";
    }

    /** {@link #describe} for this process. */
    static String describe(int numaNodes, Integer gpuNode) {
        String status;
        try {
            status = Files.readString(Path.of("/proc/self/status"));
        } catch (IOException e) {
            status = "";
        }
        return describe(status, numaNodes, gpuNode);
    }

    private static String field(String status, String name) {
        for (String line : status.split("\n")) {
            if (line.startsWith(name)) {
                return line.substring(name.length()).strip();
            }
        }
        return "";
    }
}
