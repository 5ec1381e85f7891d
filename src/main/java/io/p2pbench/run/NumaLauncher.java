package io.p2pbench.run;

import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.ResultFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A java launcher script that binds a benchmark JVM's CPUs and memory to one NUMA node through numactl. */
final class NumaLauncher {
    /** Why a combination bound to a NUMA node is skipped without numactl. */
    static final String NO_NUMACTL = "host memory placement needs numactl, which is not installed";

    private final ResultFolder folder;

    NumaLauncher(ResultFolder folder) {
        this.folder = folder;
    }

    /** The launcher for {@code node} ({@code bin/java-numaN} in the result folder, written once), or null without numactl. */
    Path forNode(int node) throws IOException {
        Path numactl = null;
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path p = Path.of(dir, "numactl");
            if (Files.isExecutable(p)) {
                numactl = p;
                break;
            }
        }
        if (numactl == null) {
            return null;
        }
        Path wrapper = folder.resolve("bin/java-numa" + node);
        if (!Files.exists(wrapper)) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            AtomicFiles.write(wrapper, "#!/bin/sh\nexec " + numactl + " --cpunodebind=" + node
                    + " --membind=" + node + " " + java + " \"$@\"\n");
            wrapper.toFile().setExecutable(true);
        }
        return wrapper;
    }
}
