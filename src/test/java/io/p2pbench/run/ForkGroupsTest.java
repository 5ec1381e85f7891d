package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.spec.Combination;
import io.p2pbench.topology.SyntheticTopologies;
import io.p2pbench.topology.Topology;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ForkGroupsTest {
    private static final Topology X8 = SyntheticTopologies.nvswitch8();
    private static final List<Combination> STANDARD = RunPlanner.plan(X8, new RunPlanner.Request(Preset.STANDARD,
            null, null, null));

    @Test
    void everyRunnableCombinationIsInExactlyOneFork() {
        List<List<Integer>> forks = ForkGroups.of(STANDARD, ForkGroups.Mode.GROUPED, c -> null);
        List<Integer> flat = forks.stream().flatMap(List::stream).toList();
        List<Integer> runnable = new java.util.ArrayList<>();
        for (int i = 0; i < STANDARD.size(); i++) {
            if (!STANDARD.get(i).plannedSkip()) {
                runnable.add(i);
            }
        }
        assertEquals(runnable, flat.stream().sorted().toList(), "each runnable combination once");
        assertTrue(forks.size() < runnable.size() / 4, forks.size() + " forks for " + runnable.size());
        for (List<Integer> fork : forks) {
            assertTrue(fork.size() <= ForkGroups.MAX_PER_FORK);
            Set<String> keys = new HashSet<>();
            fork.forEach(i -> keys.add(ForkGroups.key(STANDARD.get(i), null)));
            assertEquals(1, keys.size(), "one benchmark and its fixed parameters per fork: " + keys);
        }
    }

    @Test
    void perBenchmarkModeGivesEveryCombinationItsOwnJvm() {
        List<List<Integer>> forks = ForkGroups.of(STANDARD, ForkGroups.Mode.PER_BENCHMARK, c -> null);
        assertTrue(forks.stream().allMatch(f -> f.size() == 1));
        assertEquals(STANDARD.stream().filter(c -> !c.plannedSkip()).count(), forks.size());
    }

    @Test
    void sizesAndPairsShareAForkPathsMethodsAndNumaNodesDoNot() {
        Combination a = combination("io.p2pbench.bench.PeerCopyBenchmark.bandwidth",
                Map.of("pair", "0-1", "path", "CE_P2P_READ", "sizeBytes", "4096", "binding", "JAVACPP_RUNTIME"));
        Combination sizeAndPair = combination("io.p2pbench.bench.PeerCopyBenchmark.bandwidth",
                Map.of("pair", "1-0", "path", "CE_P2P_READ", "sizeBytes", "8192", "binding", "JAVACPP_RUNTIME"));
        Combination path = combination("io.p2pbench.bench.PeerCopyBenchmark.bandwidth",
                Map.of("pair", "0-1", "path", "SM_P2P_READ", "sizeBytes", "4096", "binding", "JAVACPP_RUNTIME"));
        Combination method = combination("io.p2pbench.bench.PeerCopyBenchmark.latency",
                Map.of("pair", "0-1", "path", "CE_P2P_READ", "sizeBytes", "4096", "binding", "JAVACPP_RUNTIME"));
        assertEquals(ForkGroups.key(a, null), ForkGroups.key(sizeAndPair, null));
        assertTrue(!ForkGroups.key(a, null).equals(ForkGroups.key(path, null)));
        assertTrue(!ForkGroups.key(a, null).equals(ForkGroups.key(method, null)));
        assertTrue(!ForkGroups.key(a, 0).equals(ForkGroups.key(a, 1)));
        List<List<Integer>> forks = ForkGroups.of(List.of(a, sizeAndPair, path, a), ForkGroups.Mode.GROUPED, c -> null);
        assertEquals(List.of(List.of(0, 1, 3), List.of(2)), forks, "a curve's combinations share a fork, in plan order");
    }

    @Test
    void laterCombinationsWarmUpForOneShortIteration() {
        assertEquals(new Preset.Timing(1, 100, 1000), ForkGroups.warm(Preset.STANDARD.bandwidth(), 100));
        assertEquals(new Preset.Timing(1, 100, 300), ForkGroups.warm(Preset.QUICK.bandwidth(), 100));
        assertEquals(new Preset.Timing(1, 30, 1000), ForkGroups.warm(Preset.STANDARD.bandwidth(), 30));
        assertEquals(new Preset.Timing(1, ForkGroups.WARM_WARMUP_MILLIS, 1000), ForkGroups.warm(Preset.STANDARD.bandwidth()));
    }

    private static Combination combination(String benchmark, Map<String, String> params) {
        return new Combination("id-" + params.hashCode() + benchmark.length(), benchmark, "peer", "bandwidth",
                params, "sweep", "NVLink", 4096, false, null, 1.0);
    }

    @Test
    void contextPolicyReadsItsWordsAndResetsOnlyWhereStreamsAreNotTheSuites() {
        assertEquals(ForkGroupMain.Contexts.REUSE_STREAMS, ForkGroupMain.Contexts.of(null));
        assertEquals(ForkGroupMain.Contexts.REUSE_STREAMS, ForkGroupMain.Contexts.of("streams"));
        assertEquals(ForkGroupMain.Contexts.RESET, ForkGroupMain.Contexts.of("reset"));
        assertEquals(ForkGroupMain.Contexts.RESET, ForkGroupMain.Contexts.of("true"));
        assertEquals(ForkGroupMain.Contexts.KEEP, ForkGroupMain.Contexts.of("false"));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ForkGroupMain.Contexts.of("sometimes"));
        assertTrue(e.getMessage().contains("sometimes") && e.getMessage().contains("streams, reset or keep"),
                e.getMessage());
        for (io.p2pbench.spec.Kind k : io.p2pbench.spec.Kind.values()) {
            boolean own = k != io.p2pbench.spec.Kind.PARTITION && k != io.p2pbench.spec.Kind.SERVING;
            assertEquals(!own, ForkGroupMain.Contexts.REUSE_STREAMS.resetsBefore(k), k.label());
            assertTrue(ForkGroupMain.Contexts.RESET.resetsBefore(k), k.label());
            assertTrue(!ForkGroupMain.Contexts.KEEP.resetsBefore(k), k.label());
        }
    }

    /** A spec's curve leaves out exactly the parameters a curve varies: size, GPU pair, element type, phase, graph. */
    @Test
    void combinationsShareAForkKeyExactlyWhenTheyDifferOnlyAlongTheCurve() {
        Set<String> curve = Set.of("sizeBytes", "pair", "dtype", "phase", "graph");
        List<Combination> plan = new java.util.ArrayList<>(STANDARD);
        plan.addAll(RunPlanner.plan(X8, new RunPlanner.Request(Preset.QUICK, null, null,
                Set.of(RunPlanner.PARTITION, RunPlanner.SERVING))));
        Map<String, String> keyOfFixed = new java.util.HashMap<>();
        Map<String, String> fixedOfKey = new java.util.HashMap<>();
        for (Combination c : plan) {
            Map<String, String> fixed = new java.util.TreeMap<>(c.params());
            fixed.keySet().removeAll(curve);
            String f = c.benchmark() + "|" + fixed;
            String key = ForkGroups.key(c, null);
            assertEquals(keyOfFixed.computeIfAbsent(f, x -> key), key, c.id());
            assertEquals(fixedOfKey.computeIfAbsent(key, x -> f), f, c.id());
        }
        assertTrue(keyOfFixed.size() > 50, keyOfFixed.size() + " curves");
    }

    /**
     * The rows whose figure is drawn at a level of the CUDA context take more rounds than the rest: device copies up to
     * 16 MiB four times the run's rounds; pinned host copies and peer copies staged through host memory up to 16 MiB
     * twice (bandwidth only). The later rounds measure them alone, packed into one JVM per round on one GPU; a run of
     * one round stays as before rounds.
     */
    @Test
    void rowsDrawnAtAContextsLevelTakeMoreRoundsInJvmsOfTheirOwn() {
        List<Combination> quick = RunPlanner.plan(SyntheticTopologies.singleH200(), new RunPlanner.Request(Preset.QUICK,
                null, null, null));
        Set<String> twice = new java.util.TreeSet<>();
        Set<String> fourTimes = new java.util.TreeSet<>();
        for (Combination c : quick) {
            int n = ForkGroups.roundsOf(c, 4);
            if (!c.plannedSkip() && n == 8) {
                twice.add(c.id());
            } else if (!c.plannedSkip() && n == 16) {
                fourTimes.add(c.id());
            } else if (!c.plannedSkip()) {
                assertEquals(ForkGroups.sharesJvm(c) ? 4 : 1, n, c.id());
            }
            assertEquals(1, ForkGroups.roundsOf(c, 1), "one round is one round: " + c.id());
        }
        assertEquals(Set.of("peer-bw-CE_P2P_READ-0-0-4KiB", "peer-bw-CE_P2P_READ-0-0-1MiB",
                "peer-bw-SM_P2P_READ-0-0-4KiB", "peer-bw-SM_P2P_READ-0-0-1MiB",
                "peer-bidir-CE_P2P_READ-0-0-4KiB", "peer-bidir-CE_P2P_READ-0-0-1MiB"), fourTimes);
        assertEquals(Set.of("peer-bw-HOST_STAGED-0-0-4KiB", "peer-bw-HOST_STAGED-0-0-1MiB",
                "host-bw-H2D-PINNED-LOCAL-gpu0-4KiB", "host-bw-H2D-PINNED-LOCAL-gpu0-1MiB",
                "host-bw-H2D-PINNED-LOCAL-gpu0-64MiB", "host-bw-D2H-PINNED-LOCAL-gpu0-4KiB",
                "host-bw-D2H-PINNED-LOCAL-gpu0-1MiB", "host-bw-D2H-PINNED-LOCAL-gpu0-64MiB",
                "host-bidir-PINNED-LOCAL-gpu0-4KiB", "host-bidir-PINNED-LOCAL-gpu0-1MiB",
                "host-bidir-PINNED-LOCAL-gpu0-64MiB"), twice);
        assertEquals(16, Round.steps(4));
        assertEquals(1, Round.steps(1));
        for (int r = 0; r < Round.steps(4); r++) {
            Round round = new Round(r, 4);
            List<List<Integer>> forks = ForkGroups.of(quick, ForkGroups.Mode.SHARED, c -> null, round::measures);
            assertEquals(forks, ForkGroups.of(quick, ForkGroups.Mode.SHARED, c -> null, round),
                    "a round's forks of transfers and collectives as before partition decode steps took rounds");
            long measured = forks.stream().mapToLong(List::size).sum();
            if (r < 4) {
                assertEquals(quick.stream().filter(c -> !c.plannedSkip()).count(), measured, "round " + (r + 1));
            } else {
                Set<String> alone = new java.util.TreeSet<>(fourTimes);
                if (r < 8) {
                    alone.addAll(twice);
                }
                assertEquals(List.of(alone.size()), forks.stream().map(List::size).toList(), "round " + (r + 1));
                assertTrue(forks.get(0).stream().allMatch(i -> alone.contains(quick.get(i).id())));
                assertEquals(".r" + (r + 1), round.suffix(quick.get(forks.get(0).get(0))));
            }
        }
    }

    /**
     * The partition study's decode steps (eager and graph) and request latencies are measured in three rounds of a
     * run of two rounds or more, each round the preset's whole iteration time; prefill steps once. Rounds 2 and 3 of
     * a partition-only run measure the decode steps and requests alone, in one JVM.
     */
    @Test
    void partitionDecodeStepsAndRequestsTakeThreeRoundsOfTheWholeTimeAndTheRestOne() {
        List<Combination> study = RunPlanner.plan(SyntheticTopologies.singleH200(), new RunPlanner.Request(Preset.QUICK,
                null, null, Set.of(RunPlanner.PARTITION), io.p2pbench.collective.Group.parse("0,0"), null, null));
        List<Combination> runnable = study.stream().filter(c -> !c.plannedSkip()).toList();
        List<String> steps = runnable.stream().filter(c -> c.id().contains("-DECODE-")).map(Combination::id).toList();
        assertEquals(14, steps.size(), "7 plans and transports, eager and graph: " + steps);
        List<String> decode = runnable.stream().filter(c -> c.id().contains("-DECODE-")
                || c.id().startsWith("part-request-")).map(Combination::id).toList();
        assertEquals(21, decode.size(), "and 7 requests: " + decode);
        for (Combination c : runnable) {
            boolean step = c.id().startsWith("part-request-") || c.id().contains("-DECODE-");
            assertEquals(step ? ForkGroups.PARTITION_DECODE_ROUNDS : 1, ForkGroups.roundsOf(c, 4), c.id());
            assertEquals(step ? 3 : 1, ForkGroups.roundsOf(c, 2), c.id());
            assertEquals(1, ForkGroups.roundsOf(c, 1), "one round is one round: " + c.id());
            assertEquals(1, ForkGroups.timeShares(c, 4), "each round the whole time: " + c.id());
            assertEquals(1, ForkGroups.timeShares(c, 2), c.id());
            assertEquals(1, ForkGroups.timeShares(c, 1), c.id());
            assertEquals(Preset.QUICK.bandwidth(), new Round(0, 4).timing(Preset.QUICK.bandwidth(), c), c.id());
            assertEquals(Preset.QUICK.latency(), new Round(1, 4).timing(Preset.QUICK.latency(), c), c.id());
            assertEquals(step ? ".r2" : "", new Round(1, 4).suffix(c), c.id());
        }
        for (int r = 0; r < Round.steps(4); r++) {
            Round round = new Round(r, 4);
            List<List<Integer>> forks = ForkGroups.of(study, ForkGroups.Mode.SHARED, c -> null, round);
            List<String> measured = forks.stream().flatMap(List::stream).map(i -> study.get(i).id()).sorted().toList();
            List<String> expected = r == 0 ? runnable.stream().map(Combination::id).sorted().toList()
                    : r < 3 ? decode.stream().sorted().toList() : List.of();
            assertEquals(expected, measured, "round " + (r + 1));
            // the first round: one JVM per curve (prefill and decode steps of a plan and transport together, its
            // request apart); rounds 2 and 3: one JVM for the 14 decode steps and 7 requests, in plan order
            assertEquals(r == 0 ? 14 : r < 3 ? 1 : 0, forks.size(), "JVMs of round " + (r + 1));
            if (r == 1) {
                assertEquals(decode, forks.get(0).stream().map(i -> study.get(i).id()).toList());
            }
        }
        // the timing each position of a JVM gets: a later round's first decode step the opening warm-up, the rest
        // of that JVM the short one, a first round's first combination the preset's
        Combination eager = study.stream().filter(c -> c.id().equals("part-step-DENSE_8B-TP-P2P-DECODE-eager-g0.0"))
                .findFirst().orElseThrow();
        Combination prefill = study.stream().filter(c -> c.id().equals("part-step-DENSE_8B-TP-P2P-PREFILL-eager-g0.0"))
                .findFirst().orElseThrow();
        Preset.Timing quick = Preset.QUICK.bandwidth();
        assertEquals(ForkGroups.opening(quick), ForkGroups.inJvm(quick, 0, new Round(1, 4), eager));
        assertEquals(ForkGroups.opening(quick), ForkGroups.inJvm(quick, 0, new Round(2, 2), eager));
        assertEquals(quick, ForkGroups.inJvm(quick, 0, new Round(0, 4), eager));
        assertEquals(quick, ForkGroups.inJvm(quick, 0, new Round(0, 4), prefill));
        assertEquals(ForkGroups.warm(quick), ForkGroups.inJvm(quick, 3, new Round(1, 4), eager));
        assertEquals(ForkGroups.warm(quick), ForkGroups.inJvm(quick, 2, new Round(0, 4), eager));
        // the later rounds' JVM in the other modes: grouped by curve, the same one JVM; one JVM per benchmark
        for (int r = 1; r < 3; r++) {
            Round round = new Round(r, 2);
            assertEquals(List.of(decode.size()), ForkGroups.of(study, ForkGroups.Mode.GROUPED, c -> null, round)
                    .stream().map(List::size).toList(), "--fork-groups --rounds 2, round " + (r + 1));
            assertEquals(decode.size(), ForkGroups.of(study, ForkGroups.Mode.PER_BENCHMARK, c -> null, round).size());
        }
        // two NUMA nodes: one later-round JVM each
        java.util.function.Function<Combination, Integer> numa = c -> c.id().contains("-TP-") ? 1 : 0;
        assertEquals(2, ForkGroups.of(study, ForkGroups.Mode.SHARED, numa, new Round(1, 4)).size());
        Preset.Timing opening = ForkGroups.opening(Preset.QUICK.bandwidth());
        assertEquals(new Preset.Timing(1, ForkGroups.OPENING_WARMUP_MILLIS, 300), opening);
        assertEquals(new Preset.Timing(3, 500, 3000), ForkGroups.opening(Preset.FULL.bandwidth()), "1.5 s already");
        assertEquals(new Preset.Timing(2, 500, 1000), ForkGroups.opening(Preset.STANDARD.bandwidth()));
        // a transfer keeps its share of the time: a quarter of it in each of four rounds
        Combination copy = RunPlanner.plan(SyntheticTopologies.singleH200(), new RunPlanner.Request(Preset.QUICK,
                null, null, null)).stream().filter(c -> c.id().equals("peer-bw-CE_P2P_READ-0-0-64MiB")).findFirst()
                .orElseThrow();
        assertEquals(4, ForkGroups.timeShares(copy, 4));
        assertEquals(75, new Round(0, 4).timing(Preset.QUICK.bandwidth(), copy).measurementMillis());
    }

    @Test
    void aRoundOfTheQuickPresetOnOneGpuTakesOneSharedJvmPerNumaNode() {
        List<Combination> quick = RunPlanner.plan(SyntheticTopologies.singleH200(), new RunPlanner.Request(Preset.QUICK,
                null, null, null));
        Round first = new Round(0, 4);
        long runnable = quick.stream().filter(c -> !c.plannedSkip()).count();
        // one NUMA node (nothing bound): every combination of the round in one JVM (at 32 a JVM, three were started)
        List<List<Integer>> one = ForkGroups.of(quick, ForkGroups.Mode.SHARED, c -> null, first::measures);
        assertEquals(List.of((int) runnable), one.stream().map(List::size).toList());
        // host rows bound to the GPU's NUMA node: one JVM per binding
        java.util.function.Function<Combination, Integer> numa = c -> c.kind().startsWith("host") ? 0 : null;
        List<List<Integer>> bound = ForkGroups.of(quick, ForkGroups.Mode.SHARED, numa, first::measures);
        assertEquals(2, bound.size(), "one JVM per NUMA binding: " + bound.stream().map(List::size).toList());
        // curves (--fork-groups) keep their cap of 32; a shared JVM has its own
        assertTrue(ForkGroups.of(quick, ForkGroups.Mode.GROUPED, numa, first::measures).stream()
                .allMatch(f -> f.size() <= ForkGroups.MAX_PER_FORK));
        assertTrue(ForkGroups.of(STANDARD, ForkGroups.Mode.SHARED, c -> null).stream()
                .allMatch(f -> f.size() <= ForkGroups.MAX_PER_SHARED_FORK));
    }
}
