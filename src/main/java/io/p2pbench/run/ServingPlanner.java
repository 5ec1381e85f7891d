package io.p2pbench.run;

import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.Transport;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.spec.Metric;
import io.p2pbench.serving.BatchPolicy;
import io.p2pbench.serving.CapacitySearch;
import io.p2pbench.serving.KvCapacity;
import io.p2pbench.serving.LengthRange;
import io.p2pbench.serving.SearchPlan;
import io.p2pbench.serving.ServingPrediction;
import io.p2pbench.serving.ServingSweep;
import io.p2pbench.serving.StepCostModel;
import io.p2pbench.serving.Target;
import io.p2pbench.serving.Workload;
import io.p2pbench.spec.Serving;
import io.p2pbench.spec.Skip;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The serving sweeps for {@code --paths SERVING}: one benchmark per plan and transport over the
 * group (SINGLE on its first GPU), each a capacity search under the user's latency target. Every
 * sweep of a run starts at the same rate, half the rate SINGLE is modelled to saturate at
 * ({@link ServingPrediction#saturationRate}), and doubles it, so all plans are measured at the same
 * geometric rates before each bisects its own knee to {@link SearchPlan#RESOLUTION}. The sweeps of one
 * model share a time budget ({@link #budgetSeconds}: 10 minutes at quick timing), cut evenly after each
 * sweep's overhead and the overrun of a point cut at its cap; each sweep stops inside its share
 * whatever it finds. A plan that does not divide the model or whose weights, buffers and one
 * request's KV do not fit the GPUs (the topology's memory) is a planned skip with its reason.
 */
final class ServingPlanner {
    /** Seed of every sweep's load. */
    static final long SEED = 27;
    /** Prompt tokens per request, uniform. */
    static final LengthRange PROMPT = new LengthRange(256, 768);
    /** Output tokens per request, uniform. */
    static final LengthRange OUTPUT = new LengthRange(64, 192);
    /** Rate factor between geometric points. */
    static final double GROWTH = 2.0;
    /**
     * The start rate is this fraction of the modelled saturation rate: half, so that the first point is near enough
     * the knee to leave the budget its four bisections (a quarter cost the quick preset's DENSE_8B sweep on one H200
     * a 16 s point at 15.6 req/s, far below its knee, per sweep).
     */
    static final double START_FRACTION = 0.5;
    /** Most points of one sweep: up to five geometric steps and the bisections. */
    static final int MAX_POINTS = 10;
    /** Bisections of the bracket: a doubling narrowed to the knee's resolution ({@link SearchPlan#RESOLUTION}), 4. */
    static final int BISECTIONS = SearchPlan.bisectionsFor(GROWTH, SearchPlan.RESOLUTION);
    /** Geometric steps below the start when the start already breaks the target. */
    static final int MAX_DOWN = 2;
    /**
     * A sweep's seconds beyond its search: the adapter builds its decode and prefill buckets (16 fixed-shape
     * steps for the default policy), the warm-up invocation serves {@code 2 s} of arrivals and drains, and each
     * of the two iterations verifies its steps. Measured on the H200 node: 5.0 to 9.5 s a sweep in all (fork
     * included), against the 11.9 s assumed here; kept, since the step model's missing communication makes the
     * searches of multi-rank sweeps longer than predicted by more (docs/serving.md, "On the GPU node").
     */
    static final double SETUP_SECONDS = 5.0;
    static final double WARMUP_SECONDS = 4.0;
    static final double VERIFY_SECONDS = 2.0;

    private ServingPlanner() {}

    /**
     * Seconds all serving sweeps of one model may take at this preset's timing, their forks, setup and checks and
     * the overrun of a point cut at its cap included: 10 minutes at quick timing.
     */
    static double budgetSeconds(Preset p) {
        return switch (p.name()) {
            case "standard" -> 1200;
            case "full" -> 2400;
            default -> 600;
        };
    }

    /** Most seconds one sweep's search may take at this preset's timing, however few sweeps there are. */
    static double maxSweepSeconds(Preset p) {
        return budgetSeconds(p) / 4;
    }

    /** The load at this preset's timing: 200 measured requests per point at quick, 500 standard, 1000 full. */
    static Workload workload(Preset p) {
        return switch (p.name()) {
            case "standard" -> new Workload(PROMPT, OUTPUT, SEED, 500, 50, 5.0);
            case "full" -> new Workload(PROMPT, OUTPUT, SEED, 1000, 100, 10.0);
            default -> new Workload(PROMPT, OUTPUT, SEED, 200, 20, 2.0);
        };
    }

    /** A sweep's seconds beyond its search: a fork's own cost and {@link #SETUP_SECONDS} and the rest. */
    static double overheadSeconds() {
        return TimePredictor.TRANSFER_FORK_SECONDS + SETUP_SECONDS + WARMUP_SECONDS + VERIFY_SECONDS;
    }

    /**
     * Adds the sweeps to {@code add}.
     *
     * @param plans the plans named, or null for every plan; a named plan that does not divide the model
     *     throws {@link IllegalArgumentException}, where a default plan is a planned skip
     */
    static void plan(Topology t, Preset p, Group group, String modelName, Set<Plan> plans, Target target,
                     BiConsumer<String, Combination> add) {
        ModelShape model = ModelShape.named(modelName == null ? "DENSE_8B" : modelName);
        Workload w = workload(p);
        long gpuBytes = group.devices().stream().mapToLong(d -> memory(t, d)).min().orElse(0);
        record Candidate(Plan plan, Transport transport, Skip skip) {}
        List<Candidate> all = new ArrayList<>();
        for (Plan plan : Plan.values()) {
            int ranks = plan == Plan.SINGLE ? 1 : group.size();
            if (plans != null && !plans.contains(plan)) {
                continue;
            }
            if (plans != null) {
                new PartitionSpec(model, plan, ranks, Phase.DECODE, 1, 1, 1).requireDivides();
            }
            for (Transport transport : Transport.values()) {
                if (plan == Plan.SINGLE && transport != Transport.P2P) {
                    continue; // nothing crosses between ranks
                }
                all.add(new Candidate(plan, transport, skip(t, group, model, plan, transport, w)));
            }
        }
        long runnable = all.stream().filter(c -> c.skip() == null).count();
        // Each sweep's share is what is left of the budget after every sweep's overhead and the overrun its last
        // point may take past its cap, so the sweeps of one model end inside the budget even then.
        double perSweep = runnable == 0 ? maxSweepSeconds(p) : Math.min(maxSweepSeconds(p), (budgetSeconds(p)
                - runnable * (overheadSeconds() + CapacitySearch.CAP_SLACK_SECONDS)) / runnable);
        // SINGLE sets the start whether or not it is planned (--plans), so sweeps of separate runs share their rates.
        Plan reference = skip(t, group, model, Plan.SINGLE, Transport.P2P, w) == null ? Plan.SINGLE
                : all.stream().filter(c -> c.skip() == null).map(Candidate::plan).findFirst().orElse(Plan.SINGLE);
        double budget = Math.max(1, Math.floor(perSweep));
        double modelled = runnable == 0 ? 1 : startRate(model, reference, group, w, gpuBytes);
        // A point must fit the sweep's budget: a model that saturates below that starts higher and reports its
        // knee as below the lowest rate measured.
        double start = Math.max(modelled, round3(CapacitySearch.lowestAffordableRate(w, budget) * 1.001));
        for (Candidate c : all) {
            SearchPlan search = new SearchPlan(start, GROWTH, MAX_POINTS, BISECTIONS, MAX_DOWN, budget);
            ServingSweep sweep = new ServingSweep(w, BatchPolicy.DEFAULT, target, search, gpuBytes);
            Serving spec = new Serving(group, model, c.plan(), c.transport(), sweep);
            String id = "serve-" + model.name() + "-" + c.plan() + "-" + c.transport() + "-"
                    + RunPlanner.groupId(spec.used());
            double predicted = c.skip() == null ? predictedSeconds(spec) : 0;
            long size = (long) BatchPolicy.DEFAULT.stepTokens() * model.hidden() * 2;
            add.accept(id, spec.combination(id, Metric.LATENCY, "serving", "group", size, spec.repeatsDevices(),
                    c.skip(), predicted));
        }
    }

    private static long memory(Topology t, int device) {
        return t.gpus().stream().filter(g -> g.index() == device).mapToLong(GpuInfo::memoryBytes).findFirst().orElse(0);
    }

    private static Skip skip(Topology t, Group g, ModelShape model, Plan plan, Transport transport, Workload w) {
        int ranks = plan == Plan.SINGLE ? 1 : g.size();
        try {
            new PartitionSpec(model, plan, ranks, Phase.DECODE, 1, 1, 1).requireDivides();
        } catch (IllegalArgumentException e) {
            return new Skip(SkipCause.DOES_NOT_DIVIDE, e.getMessage());
        }
        KvCapacity kv = KvCapacity.of(model, plan, g, BatchPolicy.DEFAULT, d -> memory(t, d));
        if (!kv.fits(w.maxContextTokens())) {
            return new Skip(SkipCause.DOES_NOT_FIT, kv.shortfall() != null ? kv.shortfall()
                    : "the KV cache left beside the weights holds " + kv.tokens()
                    + " tokens, less than the longest request's " + w.maxContextTokens());
        }
        if (transport != Transport.HOST_STAGED && plan != Plan.SINGLE) {
            return Skip.of(SkipCause.NO_PEER_ACCESS,
                    RunPlanner.skipForGroup(t, g, transport == Transport.P2P ? CollectivePath.P2P : null));
        }
        return null;
    }

    /** {@link #START_FRACTION} of the modelled saturation rate of {@code plan}, to three significant digits. */
    static double startRate(ModelShape model, Plan plan, Group group, Workload w, long gpuBytes) {
        int ranks = plan == Plan.SINGLE ? 1 : group.size();
        int distinct = plan == Plan.SINGLE ? 1 : group.distinctDevices().length;
        KvCapacity kv = KvCapacity.of(model, plan, group, BatchPolicy.DEFAULT, d -> gpuBytes);
        double saturation = ServingPrediction.saturationRate(new StepCostModel(model, plan, ranks, distinct), w,
                BatchPolicy.DEFAULT, kv.tokens());
        return round3(START_FRACTION * saturation);
    }

    private static double round3(double x) {
        return new BigDecimal(x).round(new MathContext(3, RoundingMode.UP)).doubleValue();
    }

    /** The search the model predicts for a planned serving sweep. */
    static CapacitySearch.Outcome predictedSearch(Serving s) {
        return ServingPrediction.search(s.model(), s.plan(), s.group(), s.sweep());
    }

    /** Predicted wall seconds of a serving sweep in its own fork: overhead and the modelled search. */
    static double predictedSeconds(Serving s) {
        return overheadSeconds() + predictedSearch(s).elapsedSeconds();
    }

    /** The dry run's serving lines: the workload, then per sweep its predicted points, knee and time; empty without sweeps. */
    static String describe(List<Combination> plan) {
        List<Combination> sweeps = plan.stream().filter(c -> Kind.SERVING.label().equals(c.kind())).toList();
        if (sweeps.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        ServingSweep first = Serving.of(sweeps.get(0)).sweep();
        SearchPlan s = first.search();
        sb.append(String.format(Locale.ROOT, "Serving sweeps (%s): %s. Rates from %.3g req/s x%.0f until the target "
                        + "breaks (at most %d down), then %d bisections; at most %d points and %.0f s of search per sweep. "
                        + "KV cache from the GPUs' memory; points predicted by the step model (no communication), + met / - broke:%n",
                BatchPolicy.DESCRIPTION.substring(0, BatchPolicy.DESCRIPTION.indexOf(':')), first.describe(),
                s.startRatePerSecond(), s.growth(), s.maxDown(), s.bisections(), s.maxPoints(), s.budgetSeconds()));
        double total = 0;
        for (Combination c : sweeps) {
            Serving spec = Serving.of(c);
            String who = String.format(Locale.ROOT, "  %-6s %-11s over %-9s", spec.plan(), spec.transport(),
                    spec.group());
            if (c.plannedSkip()) {
                sb.append(who).append(" skipped: ").append(c.skipReason()).append('\n');
                continue;
            }
            CapacitySearch.Outcome o = predictedSearch(spec);
            StringBuilder pts = new StringBuilder();
            for (CapacitySearch.Point p : o.points()) {
                pts.append(String.format(Locale.ROOT, " %.3g%s", p.ratePerSecond(), p.met() ? "+" : "-"));
            }
            double seconds = predictedSeconds(spec);
            total += seconds;
            KvCapacity kv = ServingPrediction.plannedCapacity(spec.model(), spec.plan(), spec.group(), spec.sweep());
            sb.append(who).append(String.format(Locale.ROOT, " KV %,d tokens; %s; knee %s; %s%n", kv.tokens(),
                    pts.toString().strip(), Double.isNaN(o.kneePerSecond()) ? "none"
                            : String.format(Locale.ROOT, "%.3g req/s", o.kneePerSecond()),
                    RunPlanner.formatDuration(seconds)));
        }
        double budget = budgetSecondsOf(sweeps);
        long runnable = sweeps.stream().filter(c -> !c.plannedSkip()).count();
        sb.append(String.format(Locale.ROOT, "  serving sweeps together: %s predicted (budget %s at this preset's "
                        + "timing, and at most %.0f s more per sweep where a point runs to its cap: %s at most), each in "
                        + "its own JVM%n", RunPlanner.formatDuration(total), RunPlanner.formatDuration(budget),
                CapacitySearch.CAP_SLACK_SECONDS, RunPlanner.formatDuration(budget + runnable
                        * CapacitySearch.CAP_SLACK_SECONDS)));
        return sb.toString();
    }

    private static double budgetSecondsOf(List<Combination> sweeps) {
        long runnable = sweeps.stream().filter(c -> !c.plannedSkip()).count();
        double search = Serving.of(sweeps.get(0)).sweep().search().budgetSeconds();
        return runnable * (search + overheadSeconds());
    }
}
