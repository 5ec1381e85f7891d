package io.p2pbench.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The launchers whose environment {@code p2pbench run} understands, in the order of precedence used when
 * several are present ({@link LaunchEnvironment#detect}): the innermost launcher comes first, since a process
 * inherits the variables of every launcher around it. torchrun started by srun, or mpirun inside an sbatch
 * allocation, leave the outer Slurm variables in place (the batch step's {@code SLURM_PROCID=0} in every rank);
 * the inner launcher's are the ones that differ per rank. A launcher whose variables are incomplete yields to the
 * next complete one. {@code P2PBENCH_LAUNCHER} names one explicitly (srun
 * started from inside an mpirun job, the rare reverse nesting, needs {@code P2PBENCH_LAUNCHER=slurm}).
 */
public enum Launcher {
    /** torchrun (and scripts that set its variables): RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE. */
    TORCHRUN("torchrun-style", "torchrun", List.of("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE")),
    /** Open MPI's mpirun/mpiexec (prterun): OMPI_COMM_WORLD_*. */
    OPEN_MPI("Open MPI", "openmpi", List.of("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
            "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE")),
    /** MPICH's and Intel MPI's Hydra mpiexec (PMI): PMI_RANK, PMI_SIZE, MPI_LOCALRANKID, MPI_LOCALNRANKS. */
    MPICH("MPICH/Hydra (PMI)", "mpich", List.of("PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "MPI_LOCALNRANKS")),
    /** A task of a Slurm job step (srun): SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_NODEID. */
    SLURM("Slurm", "slurm", List.of("SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_NODEID"));

    private final String label;
    private final String word;
    private final List<String> rankVariables;

    Launcher(String label, String word, List<String> rankVariables) {
        this.label = label;
        this.word = word;
        this.rankVariables = rankVariables;
    }

    /** How messages name it, e.g. {@code Open MPI}. */
    public String label() {
        return label;
    }

    /** The value of {@code P2PBENCH_LAUNCHER} that selects it, e.g. {@code openmpi}. */
    public String word() {
        return word;
    }

    /** The variable that gives rank (0), world size (1), local rank (2) or local world size (3), for messages. */
    String variable(int which) {
        if (this == SLURM && which == 3) {
            return "SLURM_NTASKS_PER_NODE";
        }
        return rankVariables.get(which);
    }

    /** The launcher {@code word} names (P2PBENCH_LAUNCHER); throws naming the accepted words. */
    public static Launcher named(String word) {
        String w = word.trim().toLowerCase(Locale.ROOT);
        for (Launcher l : values()) {
            if (l.word.equals(w)) {
                return l;
            }
        }
        if (w.equals("hydra") || w.equals("pmi") || w.equals("intelmpi")) {
            return MPICH;
        }
        throw new LaunchException("P2PBENCH_LAUNCHER=" + word + " names no launcher; use torchrun, openmpi, mpich, "
                + "slurm or none");
    }

    /**
     * Whether this launcher's variables are in {@code env}. Slurm counts only inside a job step's task (srun sets
     * SLURM_STEP_ID there): a batch script or an salloc shell has SLURM_PROCID too but starts one process, which
     * runs as an ordinary one-process run.
     */
    public boolean presentIn(Map<String, String> env) {
        return switch (this) {
            case TORCHRUN -> has(env, "RANK") || has(env, "WORLD_SIZE");
            case OPEN_MPI -> has(env, "OMPI_COMM_WORLD_RANK") || has(env, "OMPI_COMM_WORLD_SIZE");
            case MPICH -> has(env, "PMI_RANK") || has(env, "PMI_SIZE") || has(env, "MPI_LOCALRANKID");
            case SLURM -> has(env, "SLURM_PROCID") && isStep(env);
        };
    }

    private static boolean isStep(Map<String, String> env) {
        String step = env.getOrDefault("SLURM_STEP_ID", env.get("SLURM_STEPID"));
        // 4294967294 and 4294967291 are the batch and extern steps (SLURM_BATCH_SCRIPT, SLURM_EXTERN_CONT).
        return step != null && !step.isBlank() && !step.equals("4294967294") && !step.equals("4294967291")
                && !step.equals("batch") && !step.equals("extern");
    }

    private static boolean has(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }

    /** Reads rank, size, local rank, local size, node and job from {@code env}; one-line errors name the variable. */
    LaunchEnvironment read(Map<String, String> env) {
        Reader r = new Reader(env, this);
        return switch (this) {
            case TORCHRUN -> {
                int rank = r.index("RANK");
                int size = r.count("WORLD_SIZE");
                int localRank = r.index("LOCAL_RANK");
                int localSize = r.count("LOCAL_WORLD_SIZE");
                String addr = r.required("MASTER_ADDR");
                int port = r.port("MASTER_PORT");
                Integer node = r.optionalIndex("GROUP_RANK");
                String runId = r.optional("TORCHELASTIC_RUN_ID");
                yield new LaunchEnvironment(this, rank, size, localRank, localSize, node, null,
                        runId == null || runId.equals("none") ? null : "torchrun-" + runId, addr + ":" + port);
            }
            case OPEN_MPI -> new LaunchEnvironment(this, r.index("OMPI_COMM_WORLD_RANK"),
                    r.count("OMPI_COMM_WORLD_SIZE"), r.index("OMPI_COMM_WORLD_LOCAL_RANK"),
                    r.count("OMPI_COMM_WORLD_LOCAL_SIZE"), null, null,
                    first(r, "ompi-", "OMPI_MCA_orte_ess_jobid", "OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE"), null);
            case MPICH -> new LaunchEnvironment(this, r.index("PMI_RANK"), r.count("PMI_SIZE"),
                    r.index("MPI_LOCALRANKID"), r.count("MPI_LOCALNRANKS"), null, null,
                    first(r, "pmi-", "PMI_JOBID", "PMI_KVSNAME"), null);
            case SLURM -> slurm(r, env);
        };
    }

    private static String first(Reader r, String prefix, String... names) {
        for (String n : names) {
            String v = r.optional(n);
            if (v != null) {
                return prefix + v;
            }
        }
        return null;
    }

    private LaunchEnvironment slurm(Reader r, Map<String, String> env) {
        int rank = r.index("SLURM_PROCID");
        String sizeVar = has(env, "SLURM_STEP_NUM_TASKS") ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS";
        int size = r.count(sizeVar);
        int localRank = r.index("SLURM_LOCALID");
        int node = r.index("SLURM_NODEID");
        int localSize;
        if (has(env, "SLURM_NTASKS_PER_NODE")) {
            localSize = r.count("SLURM_NTASKS_PER_NODE");
        } else {
            String listVar = has(env, "SLURM_STEP_TASKS_PER_NODE") ? "SLURM_STEP_TASKS_PER_NODE" : "SLURM_TASKS_PER_NODE";
            List<Integer> perNode = tasksPerNode(r.required(listVar), listVar);
            if (node >= perNode.size()) {
                throw new LaunchException("SLURM_NODEID=" + node + " has no entry in " + listVar + "="
                        + env.get(listVar) + " (" + perNode.size() + " nodes); Slurm was detected");
            }
            int sum = perNode.stream().mapToInt(Integer::intValue).sum();
            if (sum != size) {
                throw new LaunchException(listVar + "=" + env.get(listVar) + " adds up to " + sum + " tasks but "
                        + sizeVar + "=" + size + "; Slurm was detected, and its sizes disagree");
            }
            localSize = perNode.get(node);
        }
        String host = r.optional("SLURMD_NODENAME");
        String job = r.optional("SLURM_JOB_ID");
        String step = env.getOrDefault("SLURM_STEP_ID", env.get("SLURM_STEPID"));
        return new LaunchEnvironment(this, rank, size, localRank, localSize, node, host,
                job == null ? null : "slurm-" + job + "." + step, null);
    }

    /**
     * Slurm's compressed tasks-per-node list, {@code 2(x3),1} = 2, 2, 2, 1.
     *
     * @throws LaunchException naming the variable when it is not such a list
     */
    static List<Integer> tasksPerNode(String text, String variable) {
        List<Integer> out = new ArrayList<>();
        for (String part : text.split(",")) {
            Matcher m = Pattern.compile("(\\d{1,6})(?:\\(x(\\d{1,6})\\))?")
                    .matcher(part.trim());
            if (!m.matches() || Integer.parseInt(m.group(1)) == 0) {
                throw new LaunchException(variable + "=" + text + " is not a tasks-per-node list like 2(x3),1; "
                        + "Slurm was detected");
            }
            int repeat = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            for (int i = 0; i < repeat; i++) {
                out.add(Integer.parseInt(m.group(1)));
            }
        }
        return out;
    }

    /** Reads one launcher's variables; every failure names the variable and the launcher. */
    private static final class Reader {
        private final Map<String, String> env;
        private final Launcher launcher;

        Reader(Map<String, String> env, Launcher launcher) {
            this.env = env;
            this.launcher = launcher;
        }

        String required(String name) {
            String v = env.get(name);
            if (v == null || v.isBlank()) {
                throw new LaunchException(name + " is not set, but the " + launcher.label + " launcher was detected ("
                        + detectedBy() + "); " + launcher.label + " sets " + String.join(", ", launcher.rankVariables)
                        + (launcher == TORCHRUN ? ", MASTER_ADDR and MASTER_PORT" : "") + " in every rank");
            }
            return v.trim();
        }

        String optional(String name) {
            String v = env.get(name);
            return v == null || v.isBlank() ? null : v.trim();
        }

        int index(String name) {
            return number(name, required(name), 0, "a rank (a whole number, 0 or more)");
        }

        Integer optionalIndex(String name) {
            String v = optional(name);
            return v == null ? null : number(name, v, 0, "a whole number, 0 or more");
        }

        int count(String name) {
            return number(name, required(name), 1, "a count (a whole number, 1 or more)");
        }

        int port(String name) {
            int p = number(name, required(name), 1, "a TCP port (1 to 65535)");
            if (p > 65535) {
                throw new LaunchException(name + "=" + p + " is not a TCP port (1 to 65535); the " + launcher.label
                        + " launcher was detected (" + detectedBy() + ")");
            }
            return p;
        }

        private int number(String name, String text, int min, String what) {
            int value;
            try {
                value = Integer.parseInt(text.trim());
            } catch (NumberFormatException e) {
                throw new LaunchException(name + "='" + text + "' is not " + what + "; the " + launcher.label
                        + " launcher was detected (" + detectedBy() + ")");
            }
            if (value < min) {
                throw new LaunchException(name + "=" + value + " is not " + what + "; the " + launcher.label
                        + " launcher was detected (" + detectedBy() + ")");
            }
            return value;
        }

        private String detectedBy() {
            List<String> set = new ArrayList<>();
            for (String v : launcher.rankVariables) {
                if (has(env, v)) {
                    set.add(v);
                }
            }
            if (launcher == SLURM) {
                set.add("SLURM_STEP_ID");
            }
            return set.isEmpty() ? "P2PBENCH_LAUNCHER=" + launcher.word : String.join(", ", set) + " set";
        }
    }
}
