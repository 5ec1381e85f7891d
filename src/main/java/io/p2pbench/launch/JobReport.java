package io.p2pbench.launch;

import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.results.Outcome;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What rank 0 prints: the job when every rank has started (ranks, hosts, GPUs, the plan), and the job's results
 * once collected. A collective's job figure is made as nccl-tests makes it by default ({@code -a 1}): the ranks'
 * times per operation averaged (each rank's the median over its batches), algbw the size over that time, busbw
 * algbw times the operation's factor ({@link BusBandwidth}).
 */
final class JobReport {
    private JobReport() {}

    /** The job as rank 0 sees it once every rank has said hello. */
    static void world(PrintWriter out, String jobId, JobPlan plan, RankWorkload workload) {
        RankHello zero = plan.world().get(0);
        out.printf(Locale.ROOT, "Job %s: %d ranks on %d host%s (%s), p2pbench %s, measuring with %s%n", jobId,
                plan.world().size(), plan.hosts().size(), plan.hosts().size() == 1 ? "" : "s", zero.launcher(),
                zero.build(), workload.label() + (workload.testOnly() ? " - TEST ONLY, no GPU figures" : ""));
        out.printf(Locale.ROOT, "  %-5s %-20s %-6s %-4s %-42s %s%n", "rank", "host", "local", "GPU", "GPU UUID", "NUMA");
        for (RankHello h : plan.world()) {
            out.printf(Locale.ROOT, "  %-5d %-20s %-6d %-4d %-42s %s%n", h.rank(), h.host(), h.localRank(), h.gpu(),
                    h.gpuUuid() == null ? "?" : h.gpuUuid(), h.numaNote());
        }
        out.println(plan.describe());
        out.flush();
    }

    /** Prints the collected job; returns rank 0's exit code. */
    static int end(PrintWriter out, JobPlan plan, ResultFolder folder, RunManifest m, Map<Integer, String> unfinished,
                   PrintWriter err) {
        out.println("Results: " + folder.dir());
        List<RunManifest.Entry> copies = m.entries().stream().filter(e -> !ProcessKind.NCCL_PROCESSES.of(e.combination())
                && e.outcome() == Outcome.OK).toList();
        if (!copies.isEmpty()) {
            out.println(ProcessKind.TEST_STAND_IN.of(copies.get(0).combination())
                    ? "Copies between processes by the CPU stand-in (TEST ONLY: host array copies, no GPU):"
                    : "CUDA IPC copies between processes (device-timed, every batch verified; median over batches):");
            for (RunManifest.Entry e : copies) {
                Map<String, String> p = e.combination().params();
                out.printf(Locale.ROOT, "  rank %-9s %-16s %-5s %-9s %-44s %s%n", p.get("ranks").replace("-", " -> "),
                        p.get("host"), e.combination().link(), Sizes.format(e.combination().sizeBytes()), e.headline(),
                        e.combination().singleGpu() ? "intra-node, single GPU" : "intra-node");
            }
        }
        collectives(out, plan, folder, m);
        long ok = m.entries().stream().filter(e -> e.outcome() == Outcome.OK).count();
        long skipped = m.entries().stream().filter(e -> e.outcome() == Outcome.SKIPPED).count();
        long failed = m.entries().size() - ok - skipped;
        out.printf(Locale.ROOT, "Done: %d ok, %d skipped, %d failed, over %d ranks. Results in %s%n", ok, skipped,
                failed, plan.world().size(), folder.dir());
        out.flush();
        unfinished.forEach((r, why) -> err.println("p2pbench: " + plan.world().get(r).describe()
                + " did not finish: " + why + "; what it finished is kept in " + folder.dir()));
        if (unfinished.isEmpty() && failed > 0) {
            m.entries().stream().filter(e -> e.outcome() != Outcome.OK && e.outcome() != Outcome.SKIPPED).findFirst()
                    .ifPresent(e -> err.println("p2pbench: " + failed + " entr" + (failed == 1 ? "y" : "ies")
                            + " failed, first " + e.combination().id() + " (" + e.placement().describe() + "): "
                            + e.reason()));
        }
        err.flush();
        return failed > 0 || !unfinished.isEmpty() ? 1 : 0;
    }

    private static void collectives(PrintWriter out, JobPlan plan, ResultFolder folder, RunManifest m) {
        // One step's ranks share every parameter but their rank.
        Map<Map<String, String>, List<RunManifest.Entry>> bySteps = new LinkedHashMap<>();
        for (RunManifest.Entry e : m.entries()) {
            if (ProcessKind.NCCL_PROCESSES.of(e.combination())) {
                Map<String, String> step = new TreeMap<>(e.combination().params());
                step.remove("rank");
                bySteps.computeIfAbsent(step, k -> new ArrayList<>()).add(e);
            }
        }
        boolean header = false;
        Map<String, Integer> skipped = new LinkedHashMap<>();
        for (List<RunManifest.Entry> ranks : bySteps.values()) {
            RunManifest.Entry first = ranks.get(0);
            Map<String, String> p = first.combination().params();
            String what = String.format(Locale.ROOT, "  %-15s %-8s %-9s ranks %-12s %-11s", p.get("operation"),
                    p.get("dtype"), Sizes.format(first.combination().sizeBytes()), p.get("ranks"), p.get("span"));
            if (first.outcome() == Outcome.SKIPPED) {
                skipped.merge(first.reason(), 1, Integer::sum);
                continue;
            }
            if (!header) {
                out.println("NCCL collectives across processes (busbw as nccl-tests: the ranks' median times averaged):");
                header = true;
            }
            long ok = ranks.stream().filter(e -> e.outcome() == Outcome.OK).count();
            if (ok < ranks.size()) {
                out.println(what + ok + " of " + ranks.size() + " ranks ok");
                continue;
            }
            double meanNanos = 0;
            try {
                for (RunManifest.Entry e : ranks) {
                    BatchSamples s = BenchmarkRecords.readSamples(folder.resolve(e.samplesFile()));
                    double alg = GpuRankWorkload.median(s.batches(), 0);
                    meanNanos += s.bytesPerTransfer() / alg / ranks.size();
                }
            } catch (IOException | RuntimeException unreadable) {
                out.println(what + "figures unreadable: " + RankSteps.oneLine(unreadable));
                continue;
            }
            BusBandwidth.Operation op = BusBandwidth.Operation.valueOf(p.get("operation"));
            long size = first.combination().sizeBytes();
            out.printf(Locale.ROOT, "%sbusbw %8.2f GB/s  algbw %8.2f GB/s  %.1f us%n", what,
                    BusBandwidth.busGbps(op, ranks.size(), size, meanNanos), BusBandwidth.algGbps(size, meanNanos),
                    meanNanos / 1e3);
        }
        skipped.forEach((why, n) -> out.println("NCCL collectives across processes: " + n + " skipped: " + why));
    }
}
