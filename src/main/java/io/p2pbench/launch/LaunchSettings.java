package io.p2pbench.launch;

import io.p2pbench.settings.Settings;
import io.p2pbench.topology.SuiteBuild;
import io.p2pbench.topology.TopologyProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Everything a job of several processes reads from its environment besides the launcher's rank variables, read
 * once, in one place ({@code docs/multiprocess.md}):
 * <ul>
 *   <li>{@code P2PBENCH_JOB_ID}: names the job's exchange folder; otherwise the launcher's job id (Slurm job and
 *       step, Open MPI's job, torchrun's run id) is used, and where the launcher gives none this must be set to
 *       one value for every rank;</li>
 *   <li>{@code P2PBENCH_RANK_TIMEOUT}: seconds a rank waits for another without seeing progress (default 300);
 *       a native call that hangs ends the rank after twice that;</li>
 *   <li>{@code NCCL_COMM_ID}: NCCL's bootstrap address, rank 0's {@code host:port};</li>
 *   <li>{@code CUDA_VISIBLE_DEVICES}: which GPUs this rank sees.</li>
 * </ul>
 * Test hooks (system properties, never set by the suite itself): {@code p2pbench.test.rankWorkload} names a
 * {@link RankWorkload} class to run instead of CUDA IPC and NCCL (CPU stand-ins of the tests), and
 * {@code p2pbench.test.suiteBuild} claims another build (the mixed-build test).
 *
 * @param jobId the job's id, safe as a folder name
 * @param rankTimeout how long a rank waits for another without progress
 * @param ncclCommId NCCL_COMM_ID, or null
 * @param cudaVisibleDevices CUDA_VISIBLE_DEVICES, or null
 * @param host this host's name (the launcher's node name where it gives one)
 * @param suiteVersion the suite version this rank runs
 * @param suiteBuild the build this rank runs (SuiteBuild, unless the test hook says otherwise)
 * @param workloadClass the test stand-in's class name, or null for CUDA IPC and NCCL
 */
public record LaunchSettings(String jobId, Duration rankTimeout, String ncclCommId, String cudaVisibleDevices,
                             String host, String suiteVersion, String suiteBuild, String workloadClass) {
    /** Default seconds of {@code P2PBENCH_RANK_TIMEOUT}. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 300;
    /** System property of the test stand-in workload. */
    public static final String WORKLOAD_PROPERTY = Settings.RANK_WORKLOAD;
    /** System property that makes this rank claim another suite build (tests of the mixed-build refusal). */
    public static final String BUILD_PROPERTY = Settings.SUITE_BUILD;

    /** Reads the settings of the rank {@code launch} describes from {@code env} and the system properties. */
    public static LaunchSettings read(Map<String, String> env, LaunchEnvironment launch) {
        return new LaunchSettings(jobId(env, launch), timeout(env.get("P2PBENCH_RANK_TIMEOUT")),
                blankToNull(env.get("NCCL_COMM_ID")), env.get("CUDA_VISIBLE_DEVICES"),
                launch.nodeName() != null ? launch.nodeName() : hostName(),
                TopologyProbe.SUITE_VERSION, suiteBuild(Settings.current()),
                blankToNull(Settings.current().rankWorkload()));
    }

    private static String suiteBuild(Settings s) {
        return s.suiteBuild() != null ? s.suiteBuild() : SuiteBuild.CURRENT;
    }

    static String jobId(Map<String, String> env, LaunchEnvironment launch) {
        String own = blankToNull(env.get("P2PBENCH_JOB_ID"));
        if (own != null) {
            if (!own.matches("[A-Za-z0-9._-]{1,100}") || own.matches("\\.+")) {
                throw new LaunchException("P2PBENCH_JOB_ID='" + own + "' is not a usable job id; use 1 to 100 letters, "
                        + "digits, dots, dashes or underscores (the same value in every rank)");
            }
            return own;
        }
        if (launch.launcherJobId() != null) {
            String safe = launch.launcherJobId().replaceAll("[^A-Za-z0-9._-]", "_");
            return safe.length() > 100 ? safe.substring(0, 100) : safe;
        }
        throw new LaunchException("the " + launch.launcher().label() + " launcher gives this job no id that every "
                + "rank shares; set P2PBENCH_JOB_ID to one value for every rank (e.g. mpiexec -genv P2PBENCH_JOB_ID "
                + "run1, or torchrun --rdzv-id run1)");
    }

    static Duration timeout(String text) {
        if (text == null || text.isBlank()) {
            return Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS);
        }
        try {
            long s = Long.parseLong(text.trim());
            if (s >= 1 && s <= 86_400) {
                return Duration.ofSeconds(s);
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line message
        }
        throw new LaunchException("P2PBENCH_RANK_TIMEOUT=" + text.trim() + " is not a number of seconds from 1 to "
                + "86400 (default " + DEFAULT_TIMEOUT_SECONDS + ")");
    }

    /** This machine's host name, as the kernel has it. */
    static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!h.isEmpty()) {
                return h;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the resolver's answer below
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
