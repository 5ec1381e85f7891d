package io.p2pbench.serving;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.cuda.Resources;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.PartitionStep;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.StepBreakdown;
import io.p2pbench.partition.Transport;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A stand-in {@link VerifiedStepExecutor} until the serving step exists: it runs each scheduler
 * step on the partition study's fixed-shape steps ({@link PartitionStep}, CUDA graphs), built once
 * in buckets: decode steps of 1, 2, 4, ... up to the largest batch sequences, each attending to the
 * longest context a sequence may hold, and prefill steps of one sequence of 128, 256, ... up to the
 * step budget's tokens. A step runs the smallest decode bucket that holds its decodes and then the
 * smallest prefill bucket that holds its prefill tokens, and reports their device time summed.
 *
 * <p>So it over-states a step: decodes read the KV of the longest context, a bucket is up to twice
 * the step, and a mixed step reads the weights twice where an engine runs one forward. Nothing
 * outside the benchmark that opens it knows it: the scheduler sees only {@link StepExecutor}, and
 * replacing it is replacing its constructor call.
 */
public final class PartitionStepAdapter implements VerifiedStepExecutor {
    private static final int SMALLEST_PREFILL = 128;

    private final StepLimits limits;
    private final TreeMap<Integer, PartitionStep> decode = new TreeMap<>();
    private final TreeMap<Integer, PartitionStep> prefill = new TreeMap<>();
    private final Set<PartitionStep> used = new LinkedHashSet<>();
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final String description;

    /**
     * Builds every bucket's step (allocations, fills, graph captures), peer access as {@code transport} says.
     *
     * @throws IllegalArgumentException when the plan does not divide the model over the group
     */
    public PartitionStepAdapter(ModelShape model, Plan plan, Group group, Transport transport, StepLimits limits,
                                long stagingChunk) {
        this.limits = limits;
        int ranks = plan == Plan.SINGLE ? 1 : group.size();
        try {
            for (int b : buckets(1, limits.maxSequences())) {
                decode.put(b, own(new PartitionStep(new PartitionSpec(model, plan, ranks, Phase.DECODE, b, 1,
                        limits.maxContextTokens()), group, transport, true, stagingChunk)));
            }
            for (int t : buckets(Math.min(SMALLEST_PREFILL, limits.maxStepTokens()), limits.maxStepTokens())) {
                prefill.put(t, own(new PartitionStep(new PartitionSpec(model, plan, ranks, Phase.PREFILL, 1, t, 1), group,
                        transport, true, stagingChunk)));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        description = "partition-step adapter (CUDA graphs): decode buckets " + decode.keySet() + " sequences at "
                + limits.maxContextTokens() + " cached tokens each, prefill buckets " + prefill.keySet()
                + " tokens; a mixed step runs a decode step, then a prefill step";
    }

    /** first, 2 first, 4 first, ... below last, then last. */
    static List<Integer> buckets(int first, int last) {
        List<Integer> out = new ArrayList<>();
        for (long b = first; b < last; b *= 2) {
            out.add((int) b);
        }
        out.add(last);
        return out;
    }

    private PartitionStep own(PartitionStep s) {
        owned.add(s);
        return s;
    }

    @Override
    public long run(StepShape shape) {
        if (!limits.admits(shape)) {
            throw new IllegalArgumentException("step " + shape + " exceeds " + limits);
        }
        double micros = 0;
        if (shape.decodeSequences() > 0) {
            micros += bucket(decode, shape.decodeSequences()).deviceMicrosPerStep(1);
        }
        if (shape.prefillTokens() > 0) {
            micros += bucket(prefill, shape.prefillTokens()).deviceMicrosPerStep(1);
        }
        return Math.round(micros * 1000);
    }

    private PartitionStep bucket(TreeMap<Integer, PartitionStep> steps, long need) {
        Map.Entry<Integer, PartitionStep> e = steps.ceilingEntry((int) need);
        PartitionStep s = e != null ? e.getValue() : steps.lastEntry().getValue();
        used.add(s);
        return s;
    }

    @Override
    public StepLimits limits() {
        return limits;
    }

    @Override
    public long verify() {
        long bytes = 0;
        Set<PartitionStep> check = used.isEmpty() ? Set.of(decode.firstEntry().getValue()) : used;
        for (PartitionStep s : check) {
            bytes += s.verify();
        }
        return bytes;
    }

    @Override
    public StepBreakdown breakdown(StepShape shape) {
        StepBreakdown sum = null;
        if (shape.decodeSequences() > 0) {
            sum = bucket(decode, shape.decodeSequences()).breakdown();
        }
        if (shape.prefillTokens() > 0) {
            StepBreakdown p = bucket(prefill, shape.prefillTokens()).breakdown();
            sum = sum == null ? p : new StepBreakdown(sum.stepUs() + p.stepUs(), sum.computeUs() + p.computeUs(),
                    sum.commUs() + p.commUs(), sum.waitUs() + p.waitUs(), sum.unaccountedUs() + p.unaccountedUs(),
                    p.stepUs() > sum.stepUs() ? p.criticalRank() : sum.criticalRank());
        }
        return sum;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void close() {
        Resources.closeReversed(owned);
        owned.clear();
    }
}
