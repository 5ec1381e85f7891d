package io.p2pbench.report.read;

import io.p2pbench.partition.Plan;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.Outcome;
import io.p2pbench.serving.PointStats;
import io.p2pbench.serving.ServingSamples;
import io.p2pbench.serving.ServingSweep;
import io.p2pbench.serving.Stability;
import io.p2pbench.serving.Target;
import io.p2pbench.spec.Serving;
import io.p2pbench.transfer.SkipCause;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The read step of the serving sweeps: per machine, model, plan, transport and group, every run's
 * samples file ({@link ServingSamples}), each point's figures computed again from its requests and
 * judged against the sweep's own target ({@link Target#judge}, as the node's search judged it: latencies,
 * and whether the server kept up with the load). Runs of one sweep (same machine, same requests at the same
 * rates, {@link ServingSweep#comparableKey()}) are kept together, one value per run; runs of two
 * machines never are. Skipped sweeps keep their reason. A samples file must lie inside its result
 * folder and hold sane values (one line otherwise).
 */
public final class ServingResults {
    private ServingResults() {}

    /**
     * One point of one run.
     *
     * @param ratePerSecond the rate offered
     * @param met whether it met the sweep's target (recomputed from its requests, {@link Target#judge})
     * @param stats its figures
     * @param stability whether its server kept up with the load ({@link Stability})
     * @param judgement {@code met}, or {@code broke: } and why
     * @param breaches what broke it, typed (empty: met)
     */
    public record Point(double ratePerSecond, boolean met, boolean capped, PointStats stats, double meanStepUs,
                 Stability stability, String judgement, Set<Target.Breach> breaches) {}

    /** One run of a sweep: its folder's label, its samples and its points in rate order. */
    public record Run(String label, ServingSamples samples, List<Point> points) {
        /** The point at {@code rate}, or null. */
        public Point at(double rate) {
            return points.stream().filter(p -> Math.abs(p.ratePerSecond() / rate - 1) < 1e-9).findFirst().orElse(null);
        }

        /** The highest rate that met the target below the lowest that broke it (NaN: none met). */
        public double knee() {
            double lowestBreak = breakRate();
            return points.stream().filter(p -> p.met() && !(p.ratePerSecond() > lowestBreak))
                    .mapToDouble(Point::ratePerSecond).max().orElse(Double.NaN);
        }

        /** The lowest rate that broke the target above every lower rate that met it; NaN: none broke. */
        public double breakRate() {
            Point p = breakPoint();
            return p == null ? Double.NaN : p.ratePerSecond();
        }

        /** The point at {@link #breakRate()}, or null. */
        public Point breakPoint() {
            return points.stream().filter(p -> !p.met()).findFirst().orElse(null);
        }
    }

    /**
     * One sweep on one machine, with every run of it.
     *
     * @param machine the machine's fingerprint
     * @param singleGpu whether its group repeats a GPU (then not an interconnect measurement)
     * @param sweep the sweep's parameters (of its first run)
     * @param skipReason why it did not run, or null
     * @param skipCause the cause of that, as a type (what verdicts read), or null
     */
    public record Sweep(String machine, String model, Plan plan, String transport, String group, boolean singleGpu,
                 ServingSweep sweep, List<Run> runs, String skipReason, SkipCause skipCause) {
        /** A sweep whose skip, if any, has no more precise cause than {@link SkipCause#OTHER}. */
        public Sweep(String machine, String model, Plan plan, String transport, String group, boolean singleGpu,
                     ServingSweep sweep, List<Run> runs, String skipReason) {
            this(machine, model, plan, transport, group, singleGpu, sweep, runs, skipReason,
                    skipReason == null ? null : SkipCause.OTHER);
        }

        /** What a plan is judged against SINGLE within: machine, model and comparable sweep. */
        public String scenario() {
            return machine + "|" + model + "|" + sweep.comparableKey();
        }

        /** The rates every run measured. */
        public List<Double> commonRates() {
            if (runs.isEmpty()) {
                return List.of();
            }
            return runs.get(0).points().stream().map(Point::ratePerSecond)
                    .filter(r -> runs.stream().allMatch(x -> x.at(r) != null)).toList();
        }

        /** Per run, a figure of the point at {@code rate} (runs without it are left out). */
        public List<Double> at(double rate, ToDoubleFunction<Point> f) {
            List<Double> out = new ArrayList<>();
            for (Run r : runs) {
                Point p = r.at(rate);
                if (p != null) {
                    out.add(f.applyAsDouble(p));
                }
            }
            return out;
        }

        /** Per run, its knee. */
        public List<Double> knees() {
            return runs.stream().map(Run::knee).toList();
        }
    }

    /** The serving sweeps of {@code sources}, in the order first planned. */
    public static List<Sweep> read(List<ResultData> sources) throws BadInputException {
        Map<String, Builder> byKey = new LinkedHashMap<>();
        for (ResultData d : sources) {
            for (RunEntry e : d.entries()) {
                if (e.serving().isEmpty()) {
                    continue;
                }
                Serving p = e.serving().get();
                ServingSweep sweep = p.sweep();
                String key = String.join("|", d.machine(), p.model().name(), p.plan().name(), p.transport().name(),
                        p.group().toString(), sweep.comparableKey());
                Builder b = byKey.computeIfAbsent(key, k -> new Builder(d.machine(), p, e.singleGpu(), sweep));
                if (e.outcome() == Outcome.SKIPPED && b.skip == null) {
                    b.skip = e.reason();
                    b.skipCause = e.cause();
                }
                if (!e.ok() || e.samplesFile() == null) {
                    continue;
                }
                b.runs.add(run(d, e.samplesFile(), sweep));
            }
        }
        List<Sweep> out = new ArrayList<>();
        for (Builder b : byKey.values()) {
            out.add(new Sweep(b.machine, b.spec.model().name(), b.spec.plan(), b.spec.transport().name(),
                    b.spec.group().toString(), b.singleGpu, b.sweep, List.copyOf(b.runs), b.runs.isEmpty() ? b.skip : null,
                    b.runs.isEmpty() ? b.skipCause : null));
        }
        return out;
    }

    private static Run run(ResultData d, Path samplesFile, ServingSweep sweep) throws BadInputException {
        Path file = samplesFile.toAbsolutePath().normalize();
        ServingSamples s;
        try {
            s = ServingSamples.read(AtomicFiles.read(file));
        } catch (IOException bad) {
            throw new BadInputException(file + ": " + bad.getMessage());
        }
        List<Point> points = new ArrayList<>();
        for (ServingSamples.Point p : s.points()) {
            PointStats st = p.stats();
            Stability stability = Stability.of(sweep.workload(), p.ratePerSecond(), p.records(), p.windowStartNanos(),
                    p.windowEndNanos(), p.windowTokens());
            Target.Judgement j = sweep.target().judge(st, stability, p.capped(), p.requests().size(),
                    sweep.workload().measured());
            points.add(new Point(p.ratePerSecond(), j.met(), p.capped(), st, p.meanStepUs(), stability, j.why(), j.breaches()));
        }
        points.sort(Comparator.comparingDouble(Point::ratePerSecond));
        return new Run(d.label(), s, List.copyOf(points));
    }

    private static final class Builder {
        final String machine;
        final Serving spec;
        final boolean singleGpu;
        final ServingSweep sweep;
        final List<Run> runs = new ArrayList<>();
        String skip;
        SkipCause skipCause;

        Builder(String machine, Serving spec, boolean singleGpu, ServingSweep sweep) {
            this.machine = machine;
            this.spec = spec;
            this.singleGpu = singleGpu;
            this.sweep = sweep;
        }
    }
}
