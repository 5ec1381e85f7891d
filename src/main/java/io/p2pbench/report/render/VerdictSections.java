package io.p2pbench.report.render;

import io.p2pbench.doctor.Diagnosis;
import io.p2pbench.doctor.DoctorText;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.verdict.MachineDoctor;
import io.p2pbench.report.verdict.PartitionVerdict;
import io.p2pbench.report.verdict.ServingVerdict;
import io.p2pbench.spec.Kind;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The report's verdict sections: "Does splitting pay?" ({@link PartitionVerdict}) and "Does splitting
 * pay at a request rate?" ({@link ServingVerdict}), each per machine, judged with that machine's
 * fastest peer copy and best-linked pairs before they are written ({@link PartitionSection},
 * {@link ServingSection}); empty without their figures. Also the P2P diagnosis of a machine's section.
 */
public final class VerdictSections {
    private VerdictSections() {}

    /** Both sections; chart links relative to the report through {@code link}. */
    public static String render(ReportContent r, Path outDir, Function<Path, String> link) {
        Map<String, PartitionVerdict.Machine> machines = new LinkedHashMap<>();
        for (ResultData d : SummaryWriter.machines(r)) {
            double fastestPeer = r.measurementsOf(d.machine()).stream()
                    .filter(m -> !m.singleGpu() && m.key().is(Kind.PEER)
                            && m.key().metric().equals(Measurement.BANDWIDTH) && m.samples().length > 0)
                    .mapToDouble(m -> PartitionVerdict.median(Arrays.stream(m.samples()).boxed().toList()))
                    .max().orElse(Double.NaN);
            String best = r.sources().stream().filter(s -> s.machine().equals(d.machine()) && s.topology() != null)
                    .map(s -> PartitionVerdict.bestPairs(s.topology())).filter(b -> !b.isEmpty()).findFirst().orElse("");
            machines.put(d.machine(), new PartitionVerdict.Machine(d.machineDescription(), fastestPeer, best));
        }
        List<PartitionVerdict.MachineVerdicts> partition = PartitionVerdict.judgeByMachine(r.partition(), machines);
        List<ServingVerdict.MachineVerdicts> serving = ServingVerdict.judgeByMachine(r.serving(), machines);
        return PartitionSection.section(partition, r.charts(), link) + ServingSection.section(serving, r.charts(), link);
    }

    /**
     * The P2P diagnosis of one machine's section ({@link MachineDoctor#diagnosis}) as Markdown; empty for imports.
     */
    public static String diagnosis(ResultData d, List<Measurement> ms) {
        Diagnosis diagnosis = MachineDoctor.diagnosis(d, ms);
        if (diagnosis == null) {
            return "";
        }
        return "### P2P diagnosis\n\n```text\n" + DoctorText.summary(diagnosis) + "```\n\n";
    }
}
