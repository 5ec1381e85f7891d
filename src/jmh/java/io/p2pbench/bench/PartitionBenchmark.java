package io.p2pbench.bench;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.fork.ForkChannel;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.PartitionStep;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.StepBreakdown;
import io.p2pbench.partition.Transport;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.transfer.BenchmarkSkipped;
import io.p2pbench.transfer.TransferFixture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * An inference step of a transformer split over {@code group} ({@link PartitionStep}): SINGLE, TP,
 * PP or EP (mixtures of experts) over the group, P2P on, off or host-staged, prefill or decode, eager or as CUDA graphs.
 * {@code step}: device time of back-to-back steps, tokens/s, and one instrumented step's compute,
 * exposed communication and wait ({@link PartitionCounters}). {@code request}: host-clock time of
 * one request, a prefill of {@code prompt} tokens per sequence then {@code decodeSteps} decode steps
 * (context fixed at {@code context}); JMH's SampleTime gives its percentiles. A plan that does not
 * divide the model, or whose whole model does not fit the GPU's memory, is recorded as skipped.
 *
 * <p>Run: {@code p2pbench run --paths PARTITION --group 0,1 --model DENSE_8B}; expert parallel:
 * {@code p2pbench run --paths PARTITION --group 0,1 --model MOE_8X_TOP2 --plans SINGLE,EP}.
 */
public class PartitionBenchmark extends BenchmarkTrial {
    /**
     * Bytes per chunk of a host-staged copy ({@code --staging-chunk}; the run passes it to every benchmark as
     * {@link ForkChannel#STAGING_CHUNK_PARAM}, so JMH's JSON records it). Only host-staged paths use it.
     */
    @Param({"" + TransferFixture.DEFAULT_STAGING_CHUNK})
    public long stagingChunk;

    /** GPUs of the ranks; repeats allowed (then not an interconnect measurement). SINGLE uses the first. */
    @Param({"0,0"})
    public String group;

    /** Model preset: DENSE_8B, DENSE_70B or MOE_8X_TOP2. */
    @Param({"DENSE_8B"})
    public String model;

    /** How the model is split. */
    @Param({"SINGLE", "TP", "PP", "EP"})
    public Plan plan;

    /** How activations move between ranks. */
    @Param({"P2P", "HOST_STAGED"})
    public Transport transport;

    /** Prefill or decode (the {@code step} benchmark). */
    @Param({"DECODE", "PREFILL"})
    public Phase phase;

    /** Sequences per step. */
    @Param({"8"})
    public int batch;

    /** Prompt tokens per sequence. */
    @Param({"2048"})
    public int prompt;

    /** Cached tokens a decode step attends to. */
    @Param({"4096"})
    public int context;

    /** Decode steps per request. */
    @Param({"32"})
    public int decodeSteps;

    /** Compute captured as CUDA graphs (true) or launched call by call. */
    @Param({"false", "true"})
    public boolean graph;

    private PartitionStep step;
    private PartitionStep decode;

    /** Builds the step (and, for {@code request}, the prefill and decode steps); impossible plans are skips. */
    @Override
    protected void openResources(BenchmarkParams params) {
        Group g = Group.parse(group);
        int ranks = plan == Plan.SINGLE ? 1 : g.size();
        boolean request = params.getBenchmark().endsWith(".request");
        // Only the shape checks (the plan divides the model, it fits the GPUs) make a
        // skip; anything the step's construction throws is a failure, so a bug cannot read as a skip.
        PartitionSpec first;
        PartitionSpec second = null;
        try {
            first = spec(request ? Phase.PREFILL : phase, ranks);
            requireFits(first, g);
            if (request) {
                second = spec(Phase.DECODE, ranks);
                requireFits(second, g);
            }
        } catch (IllegalArgumentException e) {
            throw new BenchmarkSkipped(SkipCause.DOES_NOT_DIVIDE, e.getMessage());
        }
        try {
            step = new PartitionStep(first, g, transport, graph, stagingChunk);
            if (second != null) {
                decode = new PartitionStep(second, g, transport, graph, stagingChunk);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private PartitionSpec spec(Phase p, int ranks) {
        PartitionSpec s = new PartitionSpec(ModelShape.named(model), plan, ranks, p, batch, prompt, context);
        s.requireDivides();
        return s;
    }

    private static void requireFits(PartitionSpec s, Group g) {
        String why = s.doesNotFit(g, d -> Cuda.memInfo(d)[1]);
        if (why != null) {
            throw new BenchmarkSkipped(SkipCause.DOES_NOT_FIT, why);
        }
    }

    /** Device time of back-to-back steps, plus one instrumented step's breakdown. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void step(PartitionCounters counters) {
        double us = step.deviceMicrosPerStep(4);
        StepBreakdown b = step.breakdown();
        double bus = b.commUs() > 0 ? step.busBytesPerStep() / (b.commUs() * 1e3) : 0;
        counters.add(us, step.spec().tokensPerStep() / (us * 1e-6), b.computeUs(), b.commUs(), b.waitUs(),
                b.unaccountedUs(), bus);
    }

    /** One request on the host clock: prefill, then {@code decodeSteps} decode steps. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void request() {
        step.hostNanosPerStep();
        for (int i = 0; i < decodeSteps; i++) {
            decode.hostNanosPerStep();
        }
    }

    /**
     * After every iteration, outside the timed region: checks the step's GEMMs, boundary copies and
     * all-reduces ({@link PartitionStep#verify}); a wrong result throws and fails the fork.
     */
    @Override
    protected void checkIteration() {
        step.verify();
        if (decode != null) {
            decode.verify();
        }
    }

    /** Records the bytes verified over the trial. */
    @Override
    protected void recordTrial() {
        ForkChannel.writeVerified(step.bytesVerified() + (decode != null ? decode.bytesVerified() : 0));
    }

    /** Frees every rank's buffers, graphs and handles. */
    @Override
    protected void releaseResources() {
        close();
    }

    private void close() {
        if (decode != null) {
            decode.close();
            decode = null;
        }
        if (step != null) {
            step.close();
            step = null;
        }
    }
}
