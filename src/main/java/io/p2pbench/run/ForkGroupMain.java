package io.p2pbench.run;

import com.fasterxml.jackson.core.type.TypeReference;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.CudaException;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Nccl;
import io.p2pbench.fork.ForkPhases;
import io.p2pbench.fork.ForkChannel;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.results.ResultFolder;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The benchmark JVM of one fork group ({@link ForkGroups}): runs its combinations one after another,
 * each as its own JMH run inside this JVM (JMH's {@code forks(0)}: a fresh trial, state and result
 * file per combination), and tells the executor on standard output where it is ({@link ForkChannel#startLine}
 * before a combination, {@link ForkChannel#doneLine} after it). Everything else it prints belongs to
 * the running combination's log. A crash or a kill of this JVM costs only the running combination:
 * the executor starts a new one for the rest; so does a sticky CUDA error ({@link CudaException#sticky}), after
 * which this JVM reports the combination failed and ends.
 *
 * <p>Each combination must find the GPUs as a combination in its own JVM does: without care, the second
 * combination of a group measured a device-local 1 MiB copy 41% lower on the H200 node (its streams
 * landed on another hardware queue). {@link Contexts} says how:
 * the JVM keeps the streams it made ({@link CudaStream#reuseStreams}) and its NCCL communicators
 * ({@link Nccl#keepCommunicators}, with the streams NCCL made for them), so every combination opens the
 * first one's again, and resets the GPUs' contexts ({@link Cuda#resetDevices()}) only before partition
 * combinations (cuBLAS handles and NCCL calls of their own). A reset counts in the combination's
 * {@code launch} phase.
 */
public final class ForkGroupMain {

    /** How a fork group's JVM gives every combination after the first the GPU state of a fresh JVM. */
    public enum Contexts {
        /**
         * Keep the streams and NCCL communicators for the next combination ({@link CudaStream#reuseStreams},
         * {@link Nccl#keepCommunicators}); reset the contexts only before a combination whose kind makes
         * streams of its own (this suite's policy).
         */
        REUSE_STREAMS("streams"),
        /** Reset the GPUs' contexts before every combination but the first (how earlier runs ran). */
        RESET("reset"),
        /** Neither: later combinations' streams land on other hardware queues (how the earliest grouped runs ran). */
        KEEP("keep");

        private final String word;

        Contexts(String word) {
            this.word = word;
        }

        /** The property's and the manifest's word for it. */
        public String word() {
            return word;
        }

        /**
         * The policy {@code value} names: {@code streams} (or none), {@code reset} (or {@code true}, its
         * earlier spelling), {@code keep} (or {@code false}).
         *
         * @throws IllegalArgumentException naming the value and the accepted words
         */
        public static Contexts of(String value) {
            if (value == null) {
                return REUSE_STREAMS;
            }
            return switch (value.strip()) {
                case "streams" -> REUSE_STREAMS;
                case "reset", "true" -> RESET;
                case "keep", "false" -> KEEP;
                default -> throw new IllegalArgumentException("groupContexts " + value
                        + ": expected streams, reset or keep");
            };
        }

        /** The policy of this suite's group JVMs (the others are how earlier runs, still in the tree, ran). */
        public static Contexts current() {
            return REUSE_STREAMS;
        }

        /** Whether the group JVM keeps its streams and NCCL communicators for later combinations. */
        public boolean keepsHandles() {
            return this == REUSE_STREAMS;
        }

        /** Whether a later combination of {@code kind} starts after a reset of the GPUs' contexts. */
        public boolean resetsBefore(Kind kind) {
            return switch (this) {
                case RESET -> true;
                case KEEP -> false;
                case REUSE_STREAMS -> !ownStreamsOnly(kind);
            };
        }

        /**
         * Whether every stream a combination of {@code kind} uses is a kept {@link CudaStream} or was made by
         * a kept NCCL communicator (so reusing them reproduces a fresh JVM's placement); the partition study
         * and the serving sweeps also make cuBLAS handles and graphs of their own.
         */
        static boolean ownStreamsOnly(Kind kind) {
            return switch (kind) {
                case PEER, PEER_BIDIR, HOST, HOST_BIDIR, ALLREDUCE_RING, EXCHANGE, NCCL -> true;
                case PARTITION, SERVING -> false;
            };
        }
    }

    /**
     * One combination, as the executor hands it over.
     *
     * @param index its index in the plan
     * @param combination the plan row: its benchmark, kind and JMH parameters
     * @param stagingChunkBytes host-staged copies' chunk ({@link ForkChannel#STAGING_CHUNK_PARAM})
     * @param warmupIterations warm-up iterations
     * @param warmupMillis milliseconds per warm-up iteration
     * @param measurementMillis milliseconds of the measurement iteration
     * @param resultFile where JMH writes its JSON
     * @param logFile where JMH writes its output
     * @param phaseFile where {@link ForkPhases} marks go
     */
    public record Task(int index, Combination combination,
                       long stagingChunkBytes, int warmupIterations, int warmupMillis, int measurementMillis,
                       String resultFile, String logFile, String phaseFile) {}

    private ForkGroupMain() {}

    /**
     * {@code tasks.json token}: the group's tasks in order, and the token of its progress lines
     * ({@link ForkChannel#newToken}). After a combination that left a sticky CUDA error, it reports that combination
     * failed and ends: the rest would fail in this JVM, the executor runs them in a new one.
     */
    public static void main(String[] args) throws Exception {
        List<Task> tasks = ResultFolder.mapper().readValue(Path.of(args[0]).toFile(), new TypeReference<List<Task>>() {});
        String token = args[1];
        PrintStream protocol = System.out;
        Contexts contexts = Contexts.current();
        boolean gpu = Cuda.availability().available();
        boolean keep = contexts.keepsHandles() && gpu;
        if (keep) {
            CudaStream.reuseStreams(true);
            Nccl.keepCommunicators(true);
        }
        boolean first = true;
        boolean poisoned = false;
        for (Task t : tasks) {
            ForkChannel.switchTo(t.combination().id(), t.phaseFile());
            protocol.println(ForkChannel.startLine(token, t.index(), ForkPhases.nowMicros()));
            protocol.flush();
            String error = null;
            try {
                if (!first && gpu && contexts.resetsBefore(Kind.of(t.combination().kind()))) {
                    Cuda.resetDevices();
                }
                first = false;
                ChainedOptionsBuilder o = new OptionsBuilder()
                        .include("^" + Pattern.quote(t.combination().benchmark()) + "$")
                        .forks(0)
                        .warmupIterations(t.warmupIterations())
                        .warmupTime(TimeValue.milliseconds(t.warmupMillis()))
                        .measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(t.measurementMillis()))
                        .result(t.resultFile())
                        .resultFormat(ResultFormatType.JSON)
                        .output(t.logFile())
                        .shouldFailOnError(false);
                t.combination().params().forEach(o::param);
                o.param(ForkChannel.STAGING_CHUNK_PARAM, Long.toString(t.stagingChunkBytes()));
                Collection<RunResult> results = new Runner(o.build()).run();
                if (results.isEmpty()) {
                    error = "the benchmark produced no result";
                }
            } catch (Throwable e) {
                error = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            Optional<CudaException> sticky = CudaException.firstStickyInThisJvm();
            if (sticky.isPresent()) {
                poisoned = true;
                error = (error == null ? "" : error + "; ") + "a sticky CUDA error left this JVM's CUDA context "
                        + "unusable (" + sticky.get().getMessage() + "); the rest of its group runs in a new JVM";
            }
            protocol.println(ForkChannel.doneLine(token, t.index(), ForkPhases.nowMicros(), error, poisoned));
            protocol.flush();
            if (poisoned) {
                break;
            }
        }
        if (keep && !poisoned) {
            try {
                Nccl.keepCommunicators(false);
                CudaStream.reuseStreams(false);
            } catch (RuntimeException e) {
                System.err.println("p2pbench: releasing kept streams and communicators: " + e.getMessage());
            }
        }
        // CUDA and JMH may leave non-daemon threads behind; the group is done.
        System.exit(0);
    }
}
