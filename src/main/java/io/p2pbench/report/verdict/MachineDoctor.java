package io.p2pbench.report.verdict;

import io.p2pbench.doctor.Diagnosis;
import io.p2pbench.doctor.Doctor;
import io.p2pbench.doctor.Measured;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.Endpoints;
import io.p2pbench.report.read.Lane;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.spec.Kind;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.CopyPath;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Where {@code p2pbench doctor} meets result folders: the measured P2P-on and P2P-off bandwidth per
 * pair that {@code doctor --results} sets beside each verdict, and the diagnosis section of a
 * report's machine section (from the run's recorded topology).
 */
public final class MachineDoctor {
    /** Copy paths with peer access on, preferred first. */
    private static final List<CopyPath> ON = List.of(CopyPath.CE_P2P_READ, CopyPath.CE_P2P_WRITE,
            CopyPath.SM_P2P_READ, CopyPath.SM_P2P_WRITE);
    /** Copy paths with peer access off, preferred first. */
    private static final List<CopyPath> OFF = List.of(CopyPath.CE_NO_P2P, CopyPath.HOST_STAGED);

    private MachineDoctor() {}

    /** Figures of one result folder, or why they are not shown. */
    public record Figures(Map<String, Measured> byPair, String note) {}

    /**
     * Reads {@code dir} (through {@link ResultReader}, which checks it) and returns its figures when
     * its GPUs are {@code busIds} (this machine's, by CUDA index); figures of other GPUs are not set
     * beside this machine's verdicts, and the note says so.
     */
    public static Figures read(Path dir, List<String> busIds) throws BadInputException {
        ResultData data = ResultReader.read(dir);
        Topology t = data.topology();
        List<String> recorded = t.gpus().stream().map(GpuInfo::pciBusId).toList();
        if (!busIds.isEmpty() && !recorded.equals(busIds)) {
            return new Figures(Map.of(), "measured figures of " + data.label() + " not shown: it ran on GPUs "
                    + recorded + ", this machine has " + busIds);
        }
        Map<String, Measured> figures = of(data.measurements(), data.label());
        return new Figures(figures, "measured figures from " + dir + " (" + figures.size() + " pair(s))");
    }

    /**
     * Per ordered pair {@code SRC-DST} of two different GPUs: the median one-way bandwidth with peer
     * access on and off, at the largest size that has both (else the largest that has either).
     */
    public static Map<String, Measured> of(List<Measurement> ms, String run) {
        Map<String, Map<Long, Map<CopyPath, Double>>> byPair = new HashMap<>();
        for (Measurement m : ms) {
            Measurement.Key k = m.key();
            if (!k.is(Kind.PEER) || !k.biggerIsBetter() || k.lane() != Lane.ONE_WAY
                    || !(k.ends() instanceof Endpoints.Pair ends) || m.samples().length == 0
                    || !ON.contains(k.route().copyPath()) && !OFF.contains(k.route().copyPath())) {
                continue;
            }
            if (ends.pair().sameGpu()) {
                continue;
            }
            double median = Statistics.bandwidth(m.samples()).median();
            if (Double.isFinite(median) && median > 0) {
                byPair.computeIfAbsent(k.pair(), p -> new HashMap<>()).computeIfAbsent(k.sizeBytes(), s -> new HashMap<>())
                        .put(k.route().copyPath(), median);
            }
        }
        Map<String, Measured> out = new HashMap<>();
        byPair.forEach((pair, bySize) -> {
            TreeSet<Long> sizes = new TreeSet<>(bySize.keySet());
            Long both = sizes.descendingSet().stream().filter(s -> first(bySize.get(s), ON) != null
                    && first(bySize.get(s), OFF) != null).findFirst().orElse(null);
            long size = both != null ? both : sizes.last();
            Map<CopyPath, Double> at = bySize.get(size);
            CopyPath on = first(at, ON);
            CopyPath off = first(at, OFF);
            out.put(pair, new Measured(on == null ? null : at.get(on), on == null ? null : on.name(),
                    off == null ? null : at.get(off), off == null ? null : off.name(), size, run));
        });
        return out;
    }

    private static CopyPath first(Map<CopyPath, Double> at, List<CopyPath> paths) {
        return paths.stream().filter(at::containsKey).findFirst().orElse(null);
    }

    /**
     * The diagnosis of one machine's recorded topology with its measured figures, for its report section; null for
     * imports, which record no topology.
     */
    public static Diagnosis diagnosis(ResultData d, List<Measurement> ms) {
        if (d.topology() == null) {
            return null;
        }
        return Doctor.fromRecorded(d.topology(), "topology.json of " + d.label(), of(ms, d.label()));
    }
}
