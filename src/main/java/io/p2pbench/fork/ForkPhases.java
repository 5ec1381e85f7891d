package io.p2pbench.fork;

import io.p2pbench.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Where a benchmark's wall time goes. The fork marks its phases (JVM start, trial setup, each
 * iteration's untimed preparation and check, the timed part of warm-up and measurement iterations,
 * trial teardown) in a small text file the executor names with {@link #FILE_PROPERTY}; the executor
 * adds its own start and end of the JMH runner and reads the file back as a {@link Breakdown}:
 * measured seconds (the measurement iterations' timed part) against everything else.
 *
 * <p>Clock: wall-clock microseconds since the epoch ({@link Instant}), the only clock the executor
 * and its fork share; phases are hundreds of milliseconds, far above its resolution.
 */
public final class ForkPhases {
    /** System property of the fork: the file its phases are appended to. Absent: nothing is recorded. */
    public static final String FILE_PROPERTY = Settings.PHASE_FILE;

    /** The events a fork records, in the order they happen. */
    public enum Event {
        /** The fork's JVM started (from the runtime bean; written with the first mark). */
        JVM_START,
        /** Trial setup began: CUDA context, allocation, fills, NCCL communicators. */
        SETUP_BEGIN,
        /** Trial setup ended. */
        SETUP_END,
        /** An iteration's untimed preparation began (poisoning the outputs). */
        ITERATION_BEGIN,
        /** The iteration's timed part began (JMH calls the benchmark method from here). */
        TIMED_BEGIN,
        /** The timed part ended; the untimed check follows. */
        TIMED_END,
        /** The iteration's check ended. */
        ITERATION_END,
        /** Trial teardown began: CPU reference check, samples, freeing. */
        TEARDOWN_BEGIN,
        /** Trial teardown ended. */
        TEARDOWN_END
    }

    private static boolean jvmStartWritten;

    private ForkPhases() {}

    /** Records {@code event} now, if the executor asked for phases; {@code measurement} tells iterations apart. */
    public static synchronized void mark(Event event, boolean measurement) {
        Path file = Settings.current().phaseFile();
        if (file == null) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        if (!jvmStartWritten) {
            long startMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
            sb.append(Event.JVM_START).append(' ').append(startMillis * 1000).append(" -\n");
            jvmStartWritten = true;
        }
        sb.append(event).append(' ').append(nowMicros()).append(' ').append(measurement ? "M" : "-").append('\n');
        try {
            Files.writeString(file, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record benchmark phases in " + file, e);
        }
    }

    /** Wall-clock microseconds since the epoch. */
    public static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }

    /**
     * One benchmark's wall time by phase, seconds. {@code launch}: the runner until the fork's JVM
     * started; {@code jvm}: JVM, JMH and class loading until trial setup; {@code setup}; {@code checks}:
     * every iteration's untimed poisoning and checking; {@code warmup} and {@code measured}: the timed
     * parts of warm-up and measurement iterations; {@code teardown}; {@code exit}: teardown end until
     * the runner returned. {@code total} is the runner's wall time; phases the fork did not reach are 0.
     */
    public record Breakdown(double total, double launch, double jvm, double setup, double checks, double warmup,
                            double measured, double teardown, double exit) {
        /** Everything but the measurement iterations' timed part. */
        public double overhead() {
            return total - measured;
        }

        /** This plus {@code o}, phase by phase. */
        public Breakdown plus(Breakdown o) {
            return new Breakdown(total + o.total, launch + o.launch, jvm + o.jvm, setup + o.setup, checks + o.checks,
                    warmup + o.warmup, measured + o.measured, teardown + o.teardown, exit + o.exit);
        }

        /** All zero. */
        public static Breakdown zero() {
            return new Breakdown(0, 0, 0, 0, 0, 0, 0, 0, 0);
        }

        /** One line: {@code measured 1.00 s of 2.41 s (overhead 59%: launch 0.12, jvm 0.40, ...)}. */
        public String describe() {
            return String.format(Locale.ROOT, "measured %.2f s of %.2f s (overhead %.0f%%: launch %.2f, jvm %.2f, "
                            + "setup %.2f, warm-up %.2f, checks %.2f, teardown %.2f, exit %.2f s)", measured, total,
                    total > 0 ? 100 * overhead() / total : 0, launch, jvm, setup, warmup, checks, teardown, exit);
        }
    }

    /**
     * The breakdown of one fork from its phase lines and the runner's start and end.
     *
     * @param lines the phase file's lines ({@code EVENT MICROS M|-}); unknown or malformed lines are ignored
     */
    public static Breakdown breakdown(List<String> lines, long runnerStartMicros, long runnerEndMicros) {
        long jvmStart = -1;
        long setupBegin = -1;
        long setupEnd = -1;
        long teardownBegin = -1;
        long teardownEnd = -1;
        long iterationBegin = -1;
        long timedBegin = -1;
        long timedEnd = -1;
        double checks = 0;
        double warmup = 0;
        double measured = 0;
        for (String line : lines) {
            String[] f = line.strip().split(" ");
            if (f.length != 3) {
                continue;
            }
            Event e;
            long t;
            try {
                e = Event.valueOf(f[0]);
                t = Long.parseLong(f[1]);
            } catch (IllegalArgumentException malformed) {
                continue;
            }
            boolean m = f[2].equals("M");
            switch (e) {
                case JVM_START -> jvmStart = t;
                case SETUP_BEGIN -> setupBegin = t;
                case SETUP_END -> setupEnd = t;
                case ITERATION_BEGIN -> iterationBegin = t;
                case TIMED_BEGIN -> {
                    timedBegin = t;
                    if (iterationBegin >= 0) {
                        checks += seconds(iterationBegin, t);
                    }
                }
                case TIMED_END -> {
                    timedEnd = t;
                    if (timedBegin >= 0) {
                        if (m) {
                            measured += seconds(timedBegin, t);
                        } else {
                            warmup += seconds(timedBegin, t);
                        }
                    }
                    timedBegin = -1;
                }
                case ITERATION_END -> {
                    if (timedEnd >= 0) {
                        checks += seconds(timedEnd, t);
                    }
                    iterationBegin = -1;
                    timedEnd = -1;
                }
                case TEARDOWN_BEGIN -> teardownBegin = t;
                case TEARDOWN_END -> teardownEnd = t;
                default -> throw new IllegalStateException(e.toString());
            }
        }
        double total = seconds(runnerStartMicros, runnerEndMicros);
        // A later combination of a fork group finds its JVM running: until its setup is the runner's start.
        double launch = jvmStart >= 0 ? seconds(runnerStartMicros, jvmStart)
                : setupBegin >= 0 ? seconds(runnerStartMicros, setupBegin) : 0;
        double jvm = jvmStart >= 0 && setupBegin >= 0 ? seconds(jvmStart, setupBegin) : 0;
        double setup = setupBegin >= 0 && setupEnd >= 0 ? seconds(setupBegin, setupEnd) : 0;
        double teardown = teardownBegin >= 0 && teardownEnd >= 0 ? seconds(teardownBegin, teardownEnd) : 0;
        double exit = teardownEnd >= 0 ? seconds(teardownEnd, runnerEndMicros) : 0;
        return new Breakdown(total, launch, jvm, setup, checks, warmup, measured, teardown, exit);
    }

    private static double seconds(long fromMicros, long toMicros) {
        return Math.max(0, toMicros - fromMicros) / 1e6;
    }
}
