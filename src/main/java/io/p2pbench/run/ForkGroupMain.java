package io.p2pbench.run;

import com.fasterxml.jackson.core.type.TypeReference;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.results.ResultFolder;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
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
 * file per combination), and tells the executor on standard output where it is:
 * {@code P2PBENCH-START index micros} before a combination and
 * {@code P2PBENCH-DONE index micros ok|error message} after it. Everything else it prints belongs to
 * the running combination's log. A crash or a kill of this JVM costs only the running combination:
 * the executor starts a new one for the rest.
 *
 * <p>Before every combination but the first, the GPUs' contexts are reset ({@link Cuda#resetDevices()}),
 * so each combination starts in a fresh CUDA context as a combination in its own JVM does: without it,
 * the second combination of a group measured a device-local 1 MiB copy 41% lower on the H200 node (its
 * streams landed on another hardware queue). {@code -D}{@value #RESET_PROPERTY}{@code =false} turns it
 * off, for an A/B. The reset counts in the combination's {@code launch} phase.
 */
public final class ForkGroupMain {
    static final String START = "P2PBENCH-START";
    static final String DONE = "P2PBENCH-DONE";
    /** System property: reset the GPUs' contexts between combinations (default true). */
    public static final String RESET_PROPERTY = "p2pbench.groupReset";

    /** Whether group JVMs reset the GPUs' contexts between combinations ({@link #RESET_PROPERTY}, default true). */
    public static boolean resetsContexts() {
        return !"false".equals(System.getProperty(RESET_PROPERTY));
    }

    /**
     * One combination, as the executor hands it over.
     *
     * @param index its index in the plan
     * @param id the combination's id (names its records)
     * @param benchmark the JMH benchmark method
     * @param params JMH parameters
     * @param warmupIterations warm-up iterations
     * @param warmupMillis milliseconds per warm-up iteration
     * @param measurementMillis milliseconds of the measurement iteration
     * @param resultFile where JMH writes its JSON
     * @param logFile where JMH writes its output
     * @param phaseFile where {@link ForkPhases} marks go
     */
    public record Task(int index, String id, String benchmark, Map<String, String> params, int warmupIterations,
                       int warmupMillis, int measurementMillis, String resultFile, String logFile, String phaseFile) {}

    private ForkGroupMain() {}

    /** {@code tasks.json}: the group's tasks in order. */
    public static void main(String[] args) throws Exception {
        List<Task> tasks = ResultFolder.mapper().readValue(Path.of(args[0]).toFile(), new TypeReference<List<Task>>() {});
        PrintStream protocol = System.out;
        boolean reset = resetsContexts();
        boolean first = true;
        for (Task t : tasks) {
            System.setProperty(BenchmarkRecords.COMBINATION, t.id());
            System.setProperty(ForkPhases.FILE_PROPERTY, t.phaseFile());
            protocol.println(START + " " + t.index() + " " + ForkPhases.nowMicros());
            protocol.flush();
            String error = null;
            try {
                if (reset && !first && Cuda.availability().available()) {
                    Cuda.resetDevices();
                }
                first = false;
                ChainedOptionsBuilder o = new OptionsBuilder()
                        .include("^" + Pattern.quote(t.benchmark()) + "$")
                        .forks(0)
                        .warmupIterations(t.warmupIterations())
                        .warmupTime(TimeValue.milliseconds(t.warmupMillis()))
                        .measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(t.measurementMillis()))
                        .result(t.resultFile())
                        .resultFormat(ResultFormatType.JSON)
                        .output(t.logFile())
                        .shouldFailOnError(false);
                t.params().forEach(o::param);
                Collection<RunResult> results = new Runner(o.build()).run();
                if (results.isEmpty()) {
                    error = "the benchmark produced no result";
                }
            } catch (Throwable e) {
                error = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            protocol.println(DONE + " " + t.index() + " " + ForkPhases.nowMicros() + " "
                    + (error == null ? "ok" : "error " + error.replaceAll("\\s+", " ").strip()));
            protocol.flush();
        }
        // CUDA and JMH may leave non-daemon threads behind; the group is done.
        System.exit(0);
    }
}
