package io.p2pbench.serving;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.Plan;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a serving sweep is expected to do, before any GPU runs it: the same session
 * ({@link ServingSession}) on a {@link ModelStepExecutor} with the {@link StepCostModel} and a
 * {@link VirtualClock}, so the planner can show the rates a sweep will visit, its knee and its time.
 * The model leaves out communication and what the real step adds; the real sweep adapts its points
 * to what it measures and stops within its time budget whatever the model said.
 */
public final class ServingPrediction {
    /** Predictions by model, plan, ranks, GPUs and sweep: the planner and the time predictor ask often. */
    private static final Map<String, CapacitySearch.Outcome> CACHE = new ConcurrentHashMap<>();

    private ServingPrediction() {}

    /** The KV capacity the planner assumes: the sweep's planned GPU memory free on every GPU. */
    public static KvCapacity plannedCapacity(ModelShape model, Plan plan, Group group, ServingSweep sweep) {
        return KvCapacity.of(model, plan, group, sweep.policy(), d -> sweep.plannedGpuBytes());
    }

    /**
     * The search the model predicts (memoised), on {@code group}'s GPUs with the sweep's planned memory.
     *
     * @throws IllegalArgumentException when the plan does not divide the model or does not fit
     */
    public static CapacitySearch.Outcome search(ModelShape model, Plan plan, Group group, ServingSweep sweep) {
        String key = model.name() + "|" + plan + "|" + group + "|" + sweep.encode();
        return CACHE.computeIfAbsent(key, k -> {
            int ranks = plan == Plan.SINGLE ? 1 : group.size();
            int distinct = plan == Plan.SINGLE ? 1 : group.distinctDevices().length;
            StepCostModel cost = new StepCostModel(model, plan, ranks, distinct);
            KvCapacity kv = plannedCapacity(model, plan, group, sweep);
            if (kv.shortfall() != null) {
                throw new IllegalArgumentException(kv.shortfall());
            }
            VirtualClock clock = new VirtualClock();
            StepExecutor.StepLimits limits = new StepExecutor.StepLimits(sweep.policy().maxSequences(),
                    sweep.workload().maxContextTokens(), sweep.policy().stepTokens());
            try (ModelStepExecutor exec = new ModelStepExecutor(cost::nanos, clock, limits)) {
                return new ServingSession(sweep, exec, clock, kv.tokens()).search();
            }
        });
    }

    /**
     * A first guess of the rate a plan saturates at, requests per second: one request's prefill
     * (its prompt's marginal cost in a step that also decodes) plus its share of the decode steps of
     * a full batch (as many sequences as the policy and the KV cache allow). A knee under a latency
     * target lies below it; sweeps start at a fraction of it.
     */
    public static double saturationRate(StepCostModel cost, Workload w, BatchPolicy policy, long kvTokens) {
        int batch = (int) Math.max(1, Math.min(policy.maxSequences(), kvTokens / Math.max(1, w.meanContextTokens())));
        long context = Math.round(batch * (w.prompt().mean() + w.output().mean() / 2));
        long decode = cost.nanos(new StepShape(batch, context, 0, 0, 0));
        int chunk = Math.max(1, Math.min(policy.stepTokens() - batch, (int) Math.round(w.prompt().mean())));
        long mixed = cost.nanos(new StepShape(batch, context, 1, chunk, 0));
        double prefillPerRequest = (mixed - decode) / (double) chunk * w.prompt().mean() / 1e9;
        double decodePerRequest = w.output().mean() * decode / 1e9 / batch;
        return 1 / (prefillPerRequest + decodePerRequest);
    }
}
