package io.p2pbench.cli;

import io.p2pbench.doctor.Diagnosis;
import io.p2pbench.doctor.Doctor;
import io.p2pbench.doctor.DoctorJson;
import io.p2pbench.doctor.DoctorText;
import io.p2pbench.doctor.FixtureMachine;
import io.p2pbench.doctor.LiveMachine;
import io.p2pbench.doctor.MachineSource;
import io.p2pbench.doctor.Measured;
import io.p2pbench.files.FileProblem;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.verdict.MachineDoctor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code p2pbench doctor}: why P2P is off or slow on this machine, pair by pair, and what to change.
 * Read-only and without root; exit 0 whatever it finds (a machine without a GPU driver still gets
 * its host findings), 2 for bad input (a missing or malformed --machine folder, --results folder or
 * --lspci file).
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"For every GPU pair and direction: P2P direct, P2P through the CPU, or host-staged only, over "
            + "what (NVLinks, PCIe switch, host bridge, the inter-socket link), and each cause found (PCIe ACS, IOMMU, "
            + "virtual machine, driver refusal, link trained below its maximum, cross-socket path, BAR1, NVLinks down, "
            + "persistence mode) with its evidence and its fix. Reads only; what cannot be read is 'unknown' with the "
            + "reason. docs/doctor.md lists every check."})
final class DoctorCommand implements Callable<Integer> {
    /** The most bytes of an --lspci file read. */
    private static final int MAX_LSPCI_BYTES = 16 << 20;

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Write the diagnosis as JSON instead of text.")
    boolean json;

    @Option(names = "--results", paramLabel = "DIR",
            description = "A result folder of this machine: its measured P2P-on and P2P-off bandwidth goes beside each "
                    + "verdict.")
    Path results;

    @Option(names = "--machine", paramLabel = "FIXTURE_DIR",
            description = "Read a recorded machine folder (gpus.json, a proc/ and sys/ subset, lspci-vvv.txt) instead of "
                    + "this machine.")
    Path machine;

    @Option(names = "--lspci", paramLabel = "FILE",
            description = "Output of 'sudo lspci -vvv', for PCIe ACS where the config space needs root to read.")
    Path lspci;

    @Override
    public Integer call() {
        if (machine != null && lspci != null) {
            throw new UserInputException("--lspci " + lspci + " with --machine " + machine + ": a recorded machine "
                    + "carries its own " + FixtureMachine.LSPCI_FILE + "; give one or the other");
        }
        MachineSource src;
        try {
            src = machine != null ? FixtureMachine.open(machine) : new LiveMachine(readLspci(), null);
        } catch (IOException e) {
            throw new UserInputException("--machine " + FileProblem.of(e));
        }
        Map<String, Measured> measured = Map.of();
        List<String> notes = new ArrayList<>();
        if (results != null) {
            List<String> busIds = src.gpus().readable()
                    ? src.gpus().gpus().stream().map(g -> g.info().pciBusId()).toList() : List.of();
            try {
                MachineDoctor.Figures figures = MachineDoctor.read(results, busIds);
                measured = figures.byPair();
                notes.add(figures.note());
            } catch (BadInputException e) {
                throw new UserInputException("--results " + e.getMessage());
            }
        }
        Diagnosis d = Doctor.diagnose(src, measured);
        if (!notes.isEmpty()) {
            List<String> all = new ArrayList<>(notes);
            all.addAll(d.notes());
            d = new Diagnosis(d.source(), d.host(), d.gpus(), d.pairs(), all);
        }
        spec.commandLine().getOut().print(json ? DoctorJson.write(d) : DoctorText.render(d));
        spec.commandLine().getOut().flush();
        return 0;
    }

    private String readLspci() {
        if (lspci == null) {
            return null;
        }
        if (!Files.isRegularFile(lspci)) {
            throw new UserInputException("--lspci " + lspci + " is not a file; give the output of 'sudo lspci -vvv' "
                    + "saved to a file");
        }
        try (InputStream in = Files.newInputStream(lspci)) {
            byte[] data = in.readNBytes(MAX_LSPCI_BYTES + 1);
            if (data.length > MAX_LSPCI_BYTES) {
                throw new UserInputException("--lspci " + lspci + " is larger than 16 MiB; lspci -vvv output is far "
                        + "smaller");
            }
            return new String(data, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserInputException("--lspci " + lspci + " cannot be read: " + FileProblem.why(e));
        }
    }
}
