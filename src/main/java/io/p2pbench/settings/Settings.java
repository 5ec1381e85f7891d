package io.p2pbench.settings;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Every {@code p2pbench.*} system property the suite reads, as one typed record, read in one place
 * ({@link #read}); no other class calls {@code System.getProperty} for them. Each property is a named
 * constant below. A value that is set but not accepted (a number that does not parse or is negative, a word
 * that is not one of the property's words) throws one {@link IllegalArgumentException} naming the property,
 * the value and what is accepted: a typo must not silently run with the default.
 *
 * <p>{@link #current()} reads the properties again at each call: a fork group's JVM moves from one
 * combination to the next by setting {@link #COMBINATION} and {@link #PHASE_FILE}
 * ({@code io.p2pbench.fork.ForkChannel}), and tests set the test hooks for one test at a time.
 *
 * @param runDir the run folder of a benchmark fork ({@link #RUN_DIR}), or null outside a run
 * @param combination the combination a benchmark fork records ({@link #COMBINATION}), or null
 * @param phaseFile where a benchmark fork appends its phases ({@link #PHASE_FILE}), or null
 * @param gateMode how a stream waits behind its gate ({@link #GATE}): auto, wait or spin, lower case
 * @param cudaDisabled whether CUDA reads as absent ({@link #CUDA_DISABLE}, tests)
 * @param corrupt the corruption test hook ({@link #CORRUPT}): "" when off, "true" or a kernel's name
 * @param runLockFile the run lock's file ({@link #LOCK_FILE}), or null for the default
 * @param jmhLockFile JMH's lock file as the run lock probes it ({@link #JMH_LOCK_FILE}), or null for the default
 * @param migrateLockFile migrate's lock file ({@link #MIGRATE_LOCK_FILE}), or null for the default
 * @param classDataSharing whether benchmark forks may use a class-data archive ({@link #CDS})
 * @param deviceAllocRoundBytes device allocations rounded up to a multiple of this ({@link #DEVICE_ALLOC_ROUND}), 0 exact
 * @param pointerLog where each device allocation appends its size and address ({@link #POINTER_LOG}), or null
 * @param rankWorkload the stand-in workload of a launched rank ({@link #RANK_WORKLOAD}, tests), or null
 * @param suiteBuild the suite build a launched rank claims ({@link #SUITE_BUILD}, tests), or null for its own
 * @param gemmOnly the GEMM shapes {@code GemmCheck} times ({@link #GEMM_ONLY}), "" for all
 * @param gemmHoldMicros how long {@code GemmCheck}'s gate holds before each batch ({@link #GEMM_HOLD_MICROS})
 * @param forwardDevice the GPU {@code ForwardCheck} runs on ({@link #FORWARD_DEVICE})
 * @param hostCheck whether a collective's trial ends with the CPU reference check ({@link #HOST_CHECK}; the
 *     executor turns it off in a run's later rounds, every iteration is still checked on the GPU)
 * @param compareAcrossHosts whether compare judges rows in rounds across hosts of one kind where a drift between hosts
 *     is known ({@link #COMPARE_ACROSS_HOSTS}): off, an experiment's switch ({@code tools/leave-one-host-out.sh})
 */
public record Settings(Path runDir, String combination, Path phaseFile, String gateMode,
                       boolean cudaDisabled, String corrupt, Path runLockFile, Path jmhLockFile, Path migrateLockFile,
                       boolean classDataSharing, long deviceAllocRoundBytes, Path pointerLog, String rankWorkload,
                       String suiteBuild, String gemmOnly, long gemmHoldMicros, int forwardDevice, boolean hostCheck,
                       boolean compareAcrossHosts) {
    /** The run folder a benchmark fork records into (set by the executor). */
    public static final String RUN_DIR = "p2pbench.run.dir";
    /** The combination id a benchmark fork records (set by the executor). */
    public static final String COMBINATION = "p2pbench.combination";
    /** The file a benchmark fork appends its phases to (set by the executor); absent: none recorded. */
    public static final String PHASE_FILE = "p2pbench.phaseFile";
    /** How a stream waits behind its gate: {@code auto} (default), {@code wait} or {@code spin}. */
    public static final String GATE = "p2pbench.gate";
    /** {@code true}: CUDA reads as absent (tests). */
    public static final String CUDA_DISABLE = "p2pbench.cuda.disable";
    /** Corruption test hook: {@code true} corrupts every checked copy and kernel, a kernel's name only that kernel. */
    public static final String CORRUPT = "p2pbench.test.corrupt";
    /** The run lock's file (tests); default in the temporary directory. */
    public static final String LOCK_FILE = "p2pbench.lockFile";
    /** JMH's lock file as the run lock probes it (tests); default {@code <tmpdir>/jmh.lock}. */
    public static final String JMH_LOCK_FILE = "p2pbench.jmhLockFile";
    /** Migrate's lock file (tests); default {@code <tmpdir>/p2pbench-migrate.lock}. */
    public static final String MIGRATE_LOCK_FILE = "p2pbench.migrateLockFile";
    /** {@code false} turns the benchmark forks' class-data-sharing archive off. */
    public static final String CDS = "p2pbench.cds";
    /** Experiment: every device allocation rounded up to a multiple of this many bytes (0, the default: exact). */
    public static final String DEVICE_ALLOC_ROUND = "p2pbench.deviceAllocRound";
    /** Experiment: a file each device allocation appends its size and address to. */
    public static final String POINTER_LOG = "p2pbench.debug.pointers";
    /** The stand-in workload of a launched rank (tests). */
    public static final String RANK_WORKLOAD = "p2pbench.test.rankWorkload";
    /** The suite build a launched rank claims (tests of the mixed-build refusal). */
    public static final String SUITE_BUILD = "p2pbench.test.suiteBuild";
    /** {@code GemmCheck}: a comma-separated list of the shapes to time ({@code ROWSxINNERxCOLS}); all when unset. */
    public static final String GEMM_ONLY = "p2pbench.gemm.only";
    /** {@code GemmCheck}: microseconds the gate holds the stream before each batch (default 2000). */
    public static final String GEMM_HOLD_MICROS = "p2pbench.gemm.holdMicros";
    /** {@code ForwardCheck}: the GPU it runs on (default 0). */
    public static final String FORWARD_DEVICE = "p2pbench.forward.device";
    /** Whether a collective benchmark checks its last result against the CPU reference at the trial's end. */
    public static final String HOST_CHECK = "p2pbench.hostCheck";
    /**
     * Judge rows in rounds across hosts of one kind with a learned drift between hosts (experiments only: with ten
     * H100 hosts, one held out and the drift learned from the other nine, the odd host raised 34 false alarms in 68).
     */
    public static final String COMPARE_ACROSS_HOSTS = "p2pbench.compare.acrossHosts";

    /** This JVM's settings, read now. */
    public static Settings current() {
        return read(System::getProperty);
    }

    /** Where the properties come from (tests give a map's {@code get}). */
    @FunctionalInterface
    public interface Source {
        /** The property's value, or null when it is not set. */
        String get(String name);
    }

    /**
     * The settings {@code source} holds; the only place a {@code p2pbench.*} property is read.
     *
     * @throws IllegalArgumentException for a value the property does not accept (one line: the property, the
     *     value and what is accepted)
     */
    public static Settings read(Source source) {
        return new Settings(path(source.get(RUN_DIR)), source.get(COMBINATION), path(source.get(PHASE_FILE)),
                word(source, GATE, "auto", "auto", "wait", "spin"),
                bool(source, CUDA_DISABLE, false),
                source.get(CORRUPT) == null ? "" : source.get(CORRUPT),
                path(source.get(LOCK_FILE)), path(source.get(JMH_LOCK_FILE)), path(source.get(MIGRATE_LOCK_FILE)),
                bool(source, CDS, true),
                count(source, DEVICE_ALLOC_ROUND, 0L, Long.MAX_VALUE, "a number of bytes, 0 or more (0: exact)"),
                path(source.get(POINTER_LOG)),
                source.get(RANK_WORKLOAD), source.get(SUITE_BUILD),
                source.get(GEMM_ONLY) == null ? "" : source.get(GEMM_ONLY),
                count(source, GEMM_HOLD_MICROS, 2000L, Long.MAX_VALUE / 1000, "a number of microseconds, 0 or more"),
                (int) count(source, FORWARD_DEVICE, 0L, Integer.MAX_VALUE, "a GPU index, 0 or more"),
                bool(source, HOST_CHECK, true), bool(source, COMPARE_ACROSS_HOSTS, false));
    }

    /** Whether the corruption test hook is on for everything ({@code true}). */
    public boolean corruptAll() {
        return corrupt.equalsIgnoreCase("true");
    }

    /** Whether the corruption test hook is on for {@code what} ({@code true}, or exactly its name). */
    public boolean corrupts(String what) {
        return corruptAll() || corrupt.equals(what);
    }

    private static Path path(String p) {
        return p == null ? null : Path.of(p);
    }

    private static String word(Source source, String name, String fallback, String... accepted) {
        String v = source.get(name);
        if (v == null) {
            return fallback;
        }
        String lower = v.strip().toLowerCase(Locale.ROOT);
        for (String a : accepted) {
            if (a.equals(lower)) {
                return a;
            }
        }
        throw bad(name, v, String.join(", ", accepted));
    }

    private static boolean bool(Source source, String name, boolean fallback) {
        return source.get(name) == null ? fallback : word(source, name, null, "true", "false").equals("true");
    }

    private static long count(Source source, String name, long fallback, long max, String accepted) {
        String v = source.get(name);
        if (v == null) {
            return fallback;
        }
        long n;
        try {
            n = Long.decode(v.strip());
        } catch (NumberFormatException e) {
            throw bad(name, v, accepted);
        }
        if (n < 0) {
            throw bad(name, v, accepted);
        }
        if (n > max) {
            throw bad(name, v, accepted + " up to " + max);
        }
        return n;
    }

    private static IllegalArgumentException bad(String name, String value, String accepted) {
        return new IllegalArgumentException("-D" + name + "='" + value + "' is not accepted; use " + accepted);
    }
}
