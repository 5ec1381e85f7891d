package io.p2pbench.cli;

import io.p2pbench.doctor.Doctor;
import io.p2pbench.doctor.DoctorText;
import io.p2pbench.doctor.LiveMachine;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import io.p2pbench.topology.TopologyPrinter;
import io.p2pbench.topology.TopologyProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code p2pbench topology}: the GPUs, how they are linked, and what P2P they allow. */
@Command(name = "topology", mixinStandardHelpOptions = true,
        description = "Prints the GPU-to-GPU link matrix (nvidia-smi topo -m layout), the P2P capability "
                + "matrix and the P2P diagnosis of p2pbench doctor in short; --json writes the whole map.")
final class TopologyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Write the whole map as JSON instead of the text view.")
    boolean json;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE",
            description = "Write to FILE (atomically) instead of standard output.")
    Path out;

    @Override
    public Integer call() throws IOException {
        Topology t = TopologyProbe.probe();
        String text = json ? TopologyJson.write(t)
                : TopologyPrinter.render(t) + "\n" + DoctorText.summary(Doctor.diagnose(new LiveMachine(null, t), Map.of()));
        if (out != null) {
            AtomicFiles.write(out, text);
        } else {
            spec.commandLine().getOut().print(text);
            spec.commandLine().getOut().flush();
        }
        return 0;
    }
}
