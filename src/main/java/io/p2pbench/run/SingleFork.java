package io.p2pbench.run;

import io.p2pbench.fork.ForkChannel;
import io.p2pbench.fork.ForkPhases;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Metric;
import io.p2pbench.results.RunManifest;
import io.p2pbench.transfer.SkipCause;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * One combination in a JVM of its own ({@link ForkGroups.Mode#PER_BENCHMARK}): JMH's Runner API forks it, under
 * the watchdog's outer timeout.
 */
final class SingleFork {
    private final ForkContext run;

    SingleFork(ForkContext run) {
        this.run = run;
    }

    /** Runs combination {@code index} of the plan in {@code round}; its entry for that round. */
    RunManifest.Entry run(int index, Combination c, Round round) throws IOException {
        ForkOutcome.ForkFiles f = run.outcome().prepare(index, c, round);
        // Every round of it opens its own JVM alike, so no opening warm-up (ForkGroups.inJvm).
        Preset.Timing timing = round.timing(run.preset().timing(Metric.of(c.metric())), c);
        List<String> jvmArgs = new ArrayList<>(run.extraJvmArgs());
        jvmArgs.addAll(round.jvmArgs());
        jvmArgs.addAll(ForkChannel.jvmArgs(run.folder().dir(), c.id(), f.phaseFile()));
        jvmArgs.addAll(run.archive().jvmArgs());
        ChainedOptionsBuilder opts = new OptionsBuilder()
                .include("^" + Pattern.quote(c.benchmark()) + "$")
                .forks(1)
                .warmupIterations(timing.warmupIterations())
                .warmupTime(TimeValue.milliseconds(timing.warmupMillis()))
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(timing.measurementMillis()))
                .jvmArgsAppend(jvmArgs.toArray(String[]::new))
                .result(f.tmpJson().toString())
                .resultFormat(ResultFormatType.JSON)
                .output(run.folder().resolve(f.logRel()).toString())
                .shouldFailOnError(false);
        for (Map.Entry<String, String> p : c.params().entrySet()) {
            opts.param(p.getKey(), p.getValue());
        }
        opts.param(ForkChannel.STAGING_CHUNK_PARAM, Long.toString(run.stagingChunkBytes()));
        Integer node = run.numaNode().apply(c);
        if (node != null) {
            Path wrapper = run.numa().forNode(node);
            if (wrapper == null) {
                return RunManifest.Entry.skipped(c, SkipCause.NO_NUMACTL, NumaLauncher.NO_NUMACTL, null, 0.0);
            }
            opts.jvm(wrapper.toString());
        }
        if (run.forkJvm() != null) {
            opts.jvm(run.forkJvm().toString());
        }
        double limit = run.forkLimitSeconds().applyAsDouble(c);
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> kill = run.watchdog().arm(limit, timedOut);
        long t0 = System.nanoTime();
        long runnerStart = ForkPhases.nowMicros();
        Collection<RunResult> results;
        String runnerError = null;
        try {
            results = new Runner(opts.build()).run();
        } catch (RunnerException | RuntimeException e) {
            results = List.of();
            runnerError = e.getMessage();
        } finally {
            kill.cancel(false);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        run.phases().record(c, f.phaseFile(), runnerStart, ForkPhases.nowMicros());
        return run.outcome().conclude(f, !results.isEmpty(), runnerError, timedOut.get(), limit, seconds);
    }
}
