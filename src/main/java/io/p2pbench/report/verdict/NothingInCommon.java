package io.p2pbench.report.verdict;

import io.p2pbench.report.imports.NvbandwidthImport;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.spec.Kind;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a baseline and a candidate have no measurement in common, as the one line {@code compare} exits
 * with: the two measured the same things on other GPUs, an nvbandwidth file was read at another
 * buffer size, or it holds only testcases p2pbench has no counterpart for.
 */
final class NothingInCommon {
    /** How many GPU pairs or groups of one side the line names before "and N more". */
    private static final int NAMED = 4;

    private NothingInCommon() {}

    /** The line for a comparison of {@code baseline} and {@code candidate} that matched nothing. */
    static String why(ResultData baseline, ResultData candidate, Comparison.Matching matching) {
        String both = baseline.label() + " and " + candidate.label();
        String gpus = onlyTheGpusDiffer(baseline, candidate);
        if (gpus != null) {
            return both + " measured the same path, direction and size only on different GPUs (" + gpus
                    + "); a figure is compared only with one of the same GPUs, so nothing was compared";
        }
        StringBuilder sb = new StringBuilder(both + " have no measurement in common when matched by "
                + matching.key());
        ResultData nvb = baseline.tool() == ResultData.Tool.NVBANDWIDTH ? baseline
                : candidate.tool() == ResultData.Tool.NVBANDWIDTH ? candidate : null;
        if (nvb == null) {
            return sb.append("; compare results of the same paths and sizes").toString();
        }
        ResultData other = nvb == baseline ? candidate : baseline;
        List<String> unmapped = nvb.notMeasured().stream().filter(n -> n.gap() == ResultData.Gap.NOT_MAPPED)
                .map(ResultData.NotMeasured::id).toList();
        if (nvb.measurements().isEmpty() && !unmapped.isEmpty()) {
            return sb.append("; ").append(nvb.label()).append(" holds only testcases with no p2pbench counterpart: ")
                    .append(String.join(", ", unmapped)).append(" (p2pbench compares ")
                    .append(String.join(", ", NvbandwidthImport.mappedTestcases())).append(')').toString();
        }
        List<String> unusable = nvb.notMeasured().stream().filter(n -> n.gap() == ResultData.Gap.SKIPPED)
                .map(n -> n.id() + ": " + n.reason()).toList();
        if (nvb.measurements().isEmpty() && !unusable.isEmpty()) {
            // Every cell of every mapped testcase was unusable: that, not the buffer size, is why nothing matched.
            return sb.append("; ").append(nvb.label()).append(" holds no usable figure: ")
                    .append(String.join("; ", unusable)).toString();
        }
        Set<Long> bytes = new TreeSet<>();
        other.measurements().stream().filter(m -> m.key().metric().equals(Measurement.BANDWIDTH)
                && (m.key().is(Kind.PEER) || m.key().is(Kind.HOST)))
                .forEach(m -> bytes.add(m.key().sizeBytes()));
        List<String> sizes = bytes.stream().map(Sizes::format).toList();
        sb.append("; nvbandwidth's JSON does not record its buffer size and ").append(assumedSize(nvb))
                .append(" was assumed (pass nvbandwidth's -b as --nvbandwidth-size)");
        if (!sizes.isEmpty()) {
            sb.append("; ").append(other.label()).append(" measured copies at ").append(String.join(", ", sizes));
        }
        if (!unmapped.isEmpty()) {
            sb.append("; left out, and not why nothing matched: testcases with no p2pbench counterpart: ")
                    .append(String.join(", ", unmapped));
        }
        return sb.toString();
    }

    /**
     * The GPUs of each side, when the two measured some (metric, kind, path, direction, size) alike and differ
     * only in their GPU pair or group; null otherwise.
     */
    private static String onlyTheGpusDiffer(ResultData baseline, ResultData candidate) {
        Set<String> shared = new LinkedHashSet<>(whatWasMeasured(baseline));
        shared.retainAll(whatWasMeasured(candidate));
        if (shared.isEmpty()) {
            return null;
        }
        return baseline.label() + " on " + gpus(baseline, shared) + "; " + candidate.label() + " on "
                + gpus(candidate, shared);
    }

    private static Set<String> whatWasMeasured(ResultData d) {
        Set<String> out = new LinkedHashSet<>();
        d.measurements().forEach(m -> out.add(withoutGpus(m.key())));
        return out;
    }

    private static String withoutGpus(Measurement.Key k) {
        return String.join("|", k.metric(), k.kind(), k.path(), k.direction(), Long.toString(k.sizeBytes()));
    }

    /** The distinct pairs or groups of {@code d} among the {@code shared} measurements, as people read them. */
    private static String gpus(ResultData d, Set<String> shared) {
        Set<String> named = new LinkedHashSet<>();
        d.measurements().stream().filter(m -> shared.contains(withoutGpus(m.key())))
                .forEach(m -> named.add(m.pairWithLink()));
        List<String> list = new ArrayList<>(named);
        String shown = String.join(" | ", list.subList(0, Math.min(NAMED, list.size())));
        return list.size() > NAMED ? shown + " and " + (list.size() - NAMED) + " more" : shown;
    }

    /** The size an nvbandwidth import was read at, from its origin ({@code nvbandwidth v0.8 (-b 512 MiB)}). */
    private static String assumedSize(ResultData nvb) {
        Matcher m = Pattern.compile("-b ([^)]+)\\)").matcher(nvb.origin());
        return m.find() ? m.group(1) : "?";
    }
}
