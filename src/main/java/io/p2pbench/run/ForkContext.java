package io.p2pbench.run;

import io.p2pbench.fork.ForkChannel;
import io.p2pbench.spec.Combination;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * What both execution modes ({@link SingleFork}, {@link GroupFork}) need of the run they serve.
 *
 * @param extraJvmArgs JVM options of every benchmark JVM
 * @param numaNode the NUMA node a combination's fork must be bound to, or null for none
 * @param forkJvm tests: the launcher of every fork instead of this JVM's java, or null
 * @param forkLimitSeconds the outer timeout of a combination's fork
 * @param stagingChunkBytes host-staged copies' chunk, every benchmark's {@link ForkChannel#STAGING_CHUNK_PARAM}
 * @param recorder records a finished combination; false when the run must stop
 */
record ForkContext(ResultFolder folder, Preset preset, List<String> extraJvmArgs, Function<Combination, Integer> numaNode,
                   Path forkJvm, ToDoubleFunction<Combination> forkLimitSeconds, long stagingChunkBytes,
                   ForkArchive archive,
                   ForkWatchdog watchdog, RunState state, PhaseLog phases, ForkOutcome outcome, NumaLauncher numa,
                   Recorder recorder) {
    /** Records a finished combination. */
    @FunctionalInterface
    interface Recorder {
        /** Records one round of a combination; false when the run must stop (an interruption). */
        boolean record(int index, Combination c, RunManifest.Entry e, double tookSeconds, Round round)
                throws IOException;
    }
}
