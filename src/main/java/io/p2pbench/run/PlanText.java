package io.p2pbench.run;

import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Exchange;
import io.p2pbench.spec.HostCopy;
import io.p2pbench.spec.HostCopyBidirectional;
import io.p2pbench.spec.Metric;
import io.p2pbench.spec.NcclOp;
import io.p2pbench.spec.PartitionRun;
import io.p2pbench.spec.PeerCopy;
import io.p2pbench.spec.PeerCopyBidirectional;
import io.p2pbench.spec.Ring;
import io.p2pbench.spec.Serving;
import io.p2pbench.spec.WorkloadSpec;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The plan as printed before a run starts and by {@code --dry-run}. */
final class PlanText {
    private PlanText() {}

    static String describe(Topology t, Preset preset, List<Combination> plan, ForkGroups.Mode mode, int rounds) {
        StringBuilder sb = new StringBuilder();
        long runs = plan.stream().filter(c -> !c.plannedSkip()).count();
        double[] predicted = TimePredictor.run(plan, preset,
                TimePredictor.RunShape.current().with(mode).withRounds(rounds).with(PartitionRates.of(t)), c -> null);
        int jvms = 0;
        for (int r = 0; r < Round.steps(rounds); r++) {
            Round round = new Round(r, rounds);
            jvms += ForkGroups.of(plan, mode, c -> null, round).size();
        }
        sb.append(String.format(Locale.ROOT, "Plan for %s (%d GPU%s), preset %s: %d benchmarks to run, %d skipped, "
                        + "predicted %s%n", t.fingerprint(), t.gpuCount(), t.gpuCount() == 1 ? "" : "s", preset.name(),
                runs, plan.size() - runs, formatDuration(predicted[0])));
        if (runs > 0) {
            long level = plan.stream().filter(c -> !c.plannedSkip() && ForkGroups.sharesJvm(c)
                    && ForkGroups.roundsOf(c, rounds) > rounds).count();
            // Partition and serving benchmarks keep rounds of their own: the study's decode steps and requests 3,
            // the rest 1.
            long decode = plan.stream().filter(c -> !c.plannedSkip() && !ForkGroups.sharesJvm(c)
                    && ForkGroups.roundsOf(c, rounds) > 1 && Metric.of(c.metric()) != Metric.LATENCY).count();
            long requests = plan.stream().filter(c -> !c.plannedSkip() && !ForkGroups.sharesJvm(c)
                    && ForkGroups.roundsOf(c, rounds) > 1 && Metric.of(c.metric()) == Metric.LATENCY).count();
            long once = plan.stream().filter(c -> !c.plannedSkip() && !ForkGroups.sharesJvm(c)
                    && ForkGroups.roundsOf(c, rounds) == 1).count();
            String inRounds = decode + requests == 0 ? "" : String.format(Locale.ROOT, "%s%s%s in %d rounds",
                    decode == 0 ? "" : String.format(Locale.ROOT, "%d partition decode step%s", decode,
                            decode == 1 ? "" : "s"), decode > 0 && requests > 0 ? " and " : "",
                    requests == 0 ? "" : String.format(Locale.ROOT, "%d%s request%s", requests,
                            decode == 0 ? " partition" : "", requests == 1 ? "" : "s"),
                    ForkGroups.PARTITION_DECODE_ROUNDS);
            String own = rounds == 1 || decode + requests + once == 0 ? "" : String.format(Locale.ROOT,
                    "; %s%s%s", inRounds, !inRounds.isEmpty() && once > 0 ? ", " : "", once == 0 ? ""
                            : String.format(Locale.ROOT, "%d partition or serving benchmark%s in one", once,
                            once == 1 ? "" : "s"));
            // The run's rounds are those of its transfers, collectives and exchanges; a plan of the partition study or
            // serving sweeps alone has only the rounds of its own.
            boolean shares = plan.stream().anyMatch(c -> !c.plannedSkip() && ForkGroups.sharesJvm(c));
            String jvmText = String.format(Locale.ROOT, "%d JVM%s (%s)", jvms, jvms == 1 ? "" : "s",
                    mode == ForkGroups.Mode.PER_BENCHMARK ? "one per benchmark and round"
                    : !shares ? "one per curve" + (decode + requests > 0 && rounds > 1
                            ? "; later rounds of the partition study one per NUMA node" : "")
                    : mode == ForkGroups.Mode.SHARED ? "transfers and collectives share one per round"
                    : "one per curve and round");
            String head = !shares ? "  " + jvmText : String.format(Locale.ROOT, "  in %d round%s%s, %s", rounds,
                    rounds == 1 ? "" : "s", level == 0 ? "" : String.format(Locale.ROOT,
                            " (%d of them in more rounds, up to %d)", level, Round.steps(rounds)), jvmText);
            sb.append(String.format(Locale.ROOT, "%s%s; measurement iterations %s of it, overhead %.0f%%%n", head, own,
                    formatDuration(predicted[1]), 100 * (1 - predicted[1] / Math.max(predicted[0], 1e-9))));
        }
        Map<String, int[]> groups = new LinkedHashMap<>();
        Map<String, List<Long>> sizes = new LinkedHashMap<>();
        for (Combination c : plan) {
            if (c.plannedSkip()) {
                continue;
            }
            String key = String.format(Locale.ROOT, "%-10s %-14s %-9s", c.group(), c.kind(), c.metric());
            groups.computeIfAbsent(key, k -> new int[1])[0]++;
            sizes.computeIfAbsent(key, k -> new ArrayList<>()).add(c.sizeBytes());
        }
        for (Map.Entry<String, int[]> e : groups.entrySet()) {
            List<Long> s = sizes.get(e.getKey());
            long min = s.stream().mapToLong(Long::longValue).min().orElse(0);
            long max = s.stream().mapToLong(Long::longValue).max().orElse(0);
            sb.append(String.format(Locale.ROOT, "  %s %4d  sizes %s%n", e.getKey(), e.getValue()[0],
                    min == max ? Sizes.format(min) : Sizes.format(min) + " .. " + Sizes.format(max)));
        }
        Map<String, Set<String>> reasons = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Combination c : plan) {
            if (c.plannedSkip()) {
                String key = skipWhat(c) + ": " + c.skipReason();
                reasons.computeIfAbsent(key, k -> new TreeSet<>()).add(skipWhere(c));
                counts.merge(key, 1, Integer::sum);
            }
        }
        if (!reasons.isEmpty()) {
            sb.append("Skipped here (recorded in the results with these reasons):\n");
            reasons.forEach((r, where) -> sb.append(String.format(Locale.ROOT, "  %4d x %s [%s]%n", counts.get(r), r,
                    where.size() > 4 ? where.size() + " pairs" : String.join(", ", where))));
        }
        sb.append(ServingPlanner.describe(plan));
        return sb.toString();
    }

    /** What a planned skip is: its path, else its kind (and host placement). */
    private static String skipWhat(Combination c) {
        return WorkloadSpec.of(c).accept(new WorkloadSpec.Cases<String>() {
            @Override
            public String peerCopy(PeerCopy s) {
                return s.path().name();
            }

            @Override
            public String peerCopyBidirectional(PeerCopyBidirectional s) {
                return s.path().name();
            }

            @Override
            public String hostCopy(HostCopy s) {
                return c.kind() + " " + s.numa();
            }

            @Override
            public String hostCopyBidirectional(HostCopyBidirectional s) {
                return c.kind() + " " + s.numa();
            }

            @Override
            public String ring(Ring s) {
                return s.path().name();
            }

            @Override
            public String ncclOp(NcclOp s) {
                return c.kind();
            }

            @Override
            public String exchange(Exchange s) {
                return s.path().name();
            }

            @Override
            public String partitionRun(PartitionRun s) {
                return c.kind();
            }

            @Override
            public String serving(Serving s) {
                return c.kind();
            }
        });
    }

    /** Where a planned skip applies: its pair, its GPU or its group, never a placeholder. */
    static String skipWhere(Combination c) {
        return WorkloadSpec.of(c).accept(new WorkloadSpec.Cases<String>() {
            @Override
            public String peerCopy(PeerCopy s) {
                return s.pair().toString();
            }

            @Override
            public String peerCopyBidirectional(PeerCopyBidirectional s) {
                return s.pair().toString();
            }

            @Override
            public String hostCopy(HostCopy s) {
                return "GPU" + s.device();
            }

            @Override
            public String hostCopyBidirectional(HostCopyBidirectional s) {
                return "GPU" + s.device();
            }

            @Override
            public String ring(Ring s) {
                return "group " + s.group();
            }

            @Override
            public String ncclOp(NcclOp s) {
                return "group " + s.group();
            }

            @Override
            public String exchange(Exchange s) {
                return "group " + s.group();
            }

            @Override
            public String partitionRun(PartitionRun s) {
                return "group " + s.group();
            }

            @Override
            public String serving(Serving s) {
                return "group " + s.group();
            }
        });
    }

    /** {@code 2m05s}, {@code 1h02m}, {@code 40s}. */
    static String formatDuration(double seconds) {
        long s = Math.round(seconds);
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
        }
        if (s >= 60) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return s + "s";
    }
}
