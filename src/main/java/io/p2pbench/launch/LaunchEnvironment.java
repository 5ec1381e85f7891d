package io.p2pbench.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where this process stands in a job of several processes, as its launcher says (srun, mpirun/mpiexec,
 * torchrun-style variables; {@link Launcher}).
 *
 * @param rank the global rank, 0 to {@code worldSize - 1}
 * @param worldSize processes in the job
 * @param localRank the rank among the processes of this host
 * @param localWorldSize processes on this host
 * @param nodeId the launcher's number of this host (SLURM_NODEID, torchrun's GROUP_RANK), null where it gives none
 * @param nodeName the launcher's name of this host (SLURMD_NODENAME), null where it gives none
 * @param launcherJobId an id of this job the launcher gives every rank alike (Slurm job and step, Open MPI's job,
 *     torchrun's run id), null where it gives none
 * @param masterAddress torchrun's MASTER_ADDR:MASTER_PORT (its own store: NCCL needs another port), else null
 * @param notes what else was found: other launchers' variables, whether they agree
 */
public record LaunchEnvironment(Launcher launcher, int rank, int worldSize, int localRank, int localWorldSize,
                                Integer nodeId, String nodeName, String launcherJobId, String masterAddress,
                                List<String> notes) {
    /** The variable that overrides detection: a launcher's word or {@code none}. */
    public static final String LAUNCHER_VARIABLE = "P2PBENCH_LAUNCHER";

    LaunchEnvironment(Launcher launcher, int rank, int worldSize, int localRank, int localWorldSize, Integer nodeId,
                      String nodeName, String launcherJobId, String masterAddress) {
        this(launcher, rank, worldSize, localRank, localWorldSize, nodeId, nodeName, launcherJobId, masterAddress,
                List.of());
    }

    /**
     * The launch environment in {@code env}, or empty when no launcher started this process (or P2PBENCH_LAUNCHER
     * is {@code none}). Where several launchers' variables are present, the first of {@link Launcher}'s order wins
     * (the innermost launcher), and {@link #notes()} say whether the others agree.
     *
     * @throws LaunchException naming the variable and the detected launcher when one is missing or malformed, or
     *     when the values contradict each other
     */
    public static Optional<LaunchEnvironment> detect(Map<String, String> env) {
        String forced = env.get(LAUNCHER_VARIABLE);
        List<Launcher> present = new ArrayList<>();
        for (Launcher l : Launcher.values()) {
            if (l.presentIn(env)) {
                present.add(l);
            }
        }
        List<String> notes = new ArrayList<>();
        LaunchEnvironment e;
        if (forced != null && !forced.isBlank()) {
            if (forced.trim().equalsIgnoreCase("none")) {
                return Optional.empty();
            }
            e = Launcher.named(forced).read(env);
            e.validate();
            notes.add(LAUNCHER_VARIABLE + "=" + forced.trim() + " chose " + e.launcher.label());
        } else if (present.isEmpty()) {
            return Optional.empty();
        } else {
            e = firstComplete(present, env, notes);
        }
        Launcher chosen = e.launcher;
        for (Launcher other : present) {
            if (other != chosen && notes.stream().noneMatch(n -> n.startsWith(other.label() + "'s variables are incomplete"))) {
                notes.add(compare(e, other, env));
            }
        }
        return Optional.of(new LaunchEnvironment(e.launcher, e.rank, e.worldSize, e.localRank, e.localWorldSize,
                e.nodeId, e.nodeName, e.launcherJobId, e.masterAddress, List.copyOf(notes)));
    }

    /**
     * The first launcher of {@code present} whose variables are complete and consistent. One whose variables are
     * incomplete yields to the next (srun --mpi=pmi2 sets PMI_RANK and PMI_SIZE but not Hydra's local ranks:
     * Slurm's are used, with a note); when none is complete, the first one's problem is the error.
     */
    private static LaunchEnvironment firstComplete(List<Launcher> present, Map<String, String> env,
                                                   List<String> notes) {
        LaunchException first = null;
        for (Launcher l : present) {
            try {
                LaunchEnvironment e = l.read(env);
                e.validate();
                if (first != null) {
                    notes.add(present.get(0).label() + "'s variables are incomplete (" + first.getMessage().split(",")[0]
                            + "); using " + l.label() + "'s");
                }
                return e;
            } catch (LaunchException problem) {
                if (first == null) {
                    first = problem;
                }
            }
        }
        throw first;
    }

    private static String compare(LaunchEnvironment chosen, Launcher other, Map<String, String> env) {
        String theirs;
        try {
            LaunchEnvironment o = other.read(env);
            if (o.rank == chosen.rank && o.worldSize == chosen.worldSize && o.localRank == chosen.localRank) {
                return other.label() + "'s variables are set too and agree (rank " + o.rank + " of " + o.worldSize + ")";
            }
            theirs = "rank " + o.rank + " of " + o.worldSize + ", local rank " + o.localRank;
        } catch (LaunchException incomplete) {
            theirs = "incomplete: " + incomplete.getMessage().split(";")[0];
        }
        return other.label() + "'s variables are set too (" + theirs + "), left by a launcher around "
                + chosen.launcher.label() + "; using " + chosen.launcher.label() + "'s (" + LAUNCHER_VARIABLE
                + "=" + other.word() + " would use those)";
    }

    private void validate() {
        String who = "; the " + launcher.label() + " launcher was detected";
        if (rank >= worldSize) {
            throw new LaunchException(launcher.variable(0) + "=" + rank + " is not below " + launcher.variable(1) + "="
                    + worldSize + ": ranks run 0.." + (worldSize - 1) + who);
        }
        if (localRank >= localWorldSize) {
            throw new LaunchException(launcher.variable(2) + "=" + localRank + " is not below " + launcher.variable(3)
                    + "=" + localWorldSize + ": local ranks run 0.." + (localWorldSize - 1) + who);
        }
        if (localWorldSize > worldSize) {
            throw new LaunchException(launcher.variable(3) + "=" + localWorldSize + " is more than "
                    + launcher.variable(1) + "=" + worldSize + ": a host cannot hold more ranks than the job" + who);
        }
        if (localRank > rank) {
            throw new LaunchException(launcher.variable(2) + "=" + localRank + " is more than " + launcher.variable(0)
                    + "=" + rank + ": a rank has at least as many ranks before it as its local rank" + who);
        }
    }

    /** Whether this is a job of several processes (a world of one runs as an ordinary one-process run). */
    public boolean multiProcess() {
        return worldSize > 1;
    }

    /** {@code rank 1 of 4 (local rank 1 of 2, Slurm)}. */
    public String describe() {
        return "rank " + rank + " of " + worldSize + " (local rank " + localRank + " of " + localWorldSize + ", "
                + launcher.label() + ")";
    }
}
