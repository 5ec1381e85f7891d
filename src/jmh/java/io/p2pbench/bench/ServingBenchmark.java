package io.p2pbench.bench;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.fork.ForkChannel;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.Transport;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.serving.CapacitySearch;
import io.p2pbench.serving.HostClock;
import io.p2pbench.serving.KvCapacity;
import io.p2pbench.serving.PartitionStepExecutor;
import io.p2pbench.serving.ServingSamples;
import io.p2pbench.serving.ServingSession;
import io.p2pbench.serving.ServingSweep;
import io.p2pbench.serving.StepExecutor;
import io.p2pbench.serving.StepShape;
import io.p2pbench.serving.VerifiedStepExecutor;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.transfer.BenchmarkSkipped;
import io.p2pbench.transfer.TransferFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Serving a model split over {@code group} at request rates ({@link ServingSession}): an open-loop
 * Poisson load, continuous batching with chunked prefill and KV admission, each step executed on the
 * GPUs for the plan and transport under test; the rate search of {@code sweep} finds the highest
 * rate whose p99 TTFT and TPOT meet its target. One invocation (SingleShotTime) is the whole search;
 * the warm-up invocation serves a few seconds at the first rate and keeps nothing. Its figures are
 * per request, in the samples file ({@link ServingSamples}); JMH's score is only the search's wall
 * time. A plan that does not divide the model, or whose weights, buffers and one request's KV do not
 * fit the GPUs' free memory, is recorded as skipped.
 *
 * <p>Run: {@code p2pbench run --paths SERVING --group 0,1 --model DENSE_8B [--ttft-p99 2s --tpot-p99 100ms]}.
 */
@Warmup(iterations = 1)
@Measurement(iterations = 1)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ServingBenchmark extends BenchmarkTrial {
    /**
     * Bytes per chunk of a host-staged copy ({@code --staging-chunk}; the run passes it to every benchmark as
     * {@link ForkChannel#STAGING_CHUNK_PARAM}, so JMH's JSON records it). Only host-staged paths use it.
     */
    @Param({"" + TransferFixture.DEFAULT_STAGING_CHUNK})
    public long stagingChunk;

    /** Seconds of arrivals the warm-up invocation serves. */
    static final double WARMUP_SECONDS = 2.0;

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
    @Param({"P2P", "P2P_OFF", "HOST_STAGED"})
    public Transport transport;

    /** Workload, batch policy, latency target and rate search ({@link ServingSweep#encode()}). */
    @Param({"prompt=256..768;output=64..192;seed=27;requests=200;warmup=20/2.0s;batch=256;tokens=8192;ttft=2s;"
            + "tpot=100ms;start=10.0;growth=2.0;points=8;bisect=2;down=2;budget=60.0s;gpu=0"})
    public String sweep;

    private VerifiedStepExecutor executor;
    private ServingSession session;
    private ServingSweep parsed;
    private KvCapacity capacity;
    private long freeBytes = Long.MAX_VALUE;
    private CapacitySearch.Outcome outcome;
    private long verified;

    /** Reads the free memory, sizes the KV cache and builds the executor; impossible plans are skips. */
    @Override
    protected void openResources(BenchmarkParams params) {
        parsed = ServingSweep.parse(sweep);
        Group g = Group.parse(group);
        ModelShape m = ModelShape.named(model);
        int ranks = plan == Plan.SINGLE ? 1 : g.size();
        // Only the shape checks (the plan divides the model, it fits the GPUs' free memory) make a skip.
        try {
            new PartitionSpec(m, plan, ranks, Phase.DECODE, 1, 1, 1).requireDivides();
            capacity = KvCapacity.of(m, plan, g, parsed.policy(), d -> Cuda.memInfo(d)[0]);
        } catch (IllegalArgumentException e) {
            throw new BenchmarkSkipped(SkipCause.DOES_NOT_DIVIDE, e.getMessage());
        }
        int longest = parsed.workload().maxContextTokens();
        if (!capacity.fits(longest)) {
            throw new BenchmarkSkipped(SkipCause.DOES_NOT_FIT, capacity.shortfall() != null ? capacity.shortfall()
                    : "the KV cache left beside the weights holds " + capacity.tokens() + " tokens, less than the "
                    + "longest request's " + longest);
        }
        for (int d : plan == Plan.SINGLE ? new int[] {g.device(0)} : g.distinctDevices()) {
            freeBytes = Math.min(freeBytes, Cuda.memInfo(d)[0]);
        }
        StepExecutor.StepLimits limits = new StepExecutor.StepLimits(parsed.policy().maxSequences(),
                parsed.workload().maxContextTokens(), parsed.policy().stepTokens());
        executor = new PartitionStepExecutor(m, plan, g, transport, limits, true, stagingChunk);
        session = new ServingSession(parsed, executor, new HostClock(), capacity.tokens());
    }

    /** The warm-up invocation serves a few seconds; the measured one runs the whole capacity search. */
    @Benchmark
    public void serve() {
        if (measuring()) {
            outcome = session.search();
        } else {
            session.warmUp(WARMUP_SECONDS);
        }
    }

    /** After every iteration, outside the timed invocation: checks what the steps computed and moved. */
    @Override
    protected void checkIteration() {
        verified += executor.verify();
    }

    /** Instruments one step of the knee's mean shape, writes the samples and the bytes verified. */
    @Override
    protected void recordTrial() {
        if (outcome == null) {
            return;
        }
        StepShape shape = ServingSamples.representativeStep(outcome);
        ServingSamples.Breakdown b = shape == null ? null : ServingSamples.Breakdown.of(shape, executor.breakdown(shape));
        ServingSamples samples = ServingSamples.of(parsed, executor.description(), session.policy(), capacity,
                freeBytes, outcome, b, verified);
        ForkChannel.target().ifPresent(t -> {
            try {
                AtomicFiles.writeGzip(t.samplesFile(), samples.json());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        ForkChannel.writeVerified(verified);
    }

    /** Frees every rank's buffers, graphs and handles. */
    @Override
    protected void releaseResources() {
        if (executor != null) {
            executor.close();
            executor = null;
        }
    }
}
