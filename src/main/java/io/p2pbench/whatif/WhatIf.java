package io.p2pbench.whatif;

import io.p2pbench.report.Measurement;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The what-if: for each source and strategy, the bytes each GPU sends per training step and the
 * communication time per step predicted from that source's measured curve of the right collective
 * ({@link Curve}), with an interval and a flag wherever the prediction leaves what was measured
 * (message sizes outside the measured ones, a group size other than the measured one, a collective
 * derived from another, a single-GPU measurement). Communication is assumed not overlapped with
 * compute and not overlapped across messages.
 */
public final class WhatIf {
    private WhatIf() {}

    /**
     * What to predict.
     *
     * @param model the model
     * @param gpus GPUs each strategy runs on
     * @param strategies strategies, in table order
     * @param bucketBytes gradient bucket of data parallel and ZeRO-1/2
     * @param microBatches pipeline micro-batches per step
     * @param method prediction method
     * @param extrapolateGpus whether a source measured on another group size may be used
     * @param computeSeconds compute time per step, or null
     */
    public record Request(TrainingModel model, int gpus, List<Strategy> strategies, long bucketBytes,
                          int microBatches, Curve.Method method, boolean extrapolateGpus, Double computeSeconds) {}

    /**
     * One source and strategy.
     *
     * @param source the source
     * @param step what one step sends
     * @param seconds predicted communication time per step
     * @param lowSeconds lower end of the interval (NaN: none)
     * @param highSeconds upper end (NaN: none)
     * @param methods how the message times were predicted
     * @param flags where the prediction leaves what was measured
     * @param curves the curves used
     */
    public record Row(Source source, Strategy.Step step, double seconds, double lowSeconds, double highSeconds,
                      Set<String> methods, Set<String> flags, Set<String> curves) {
        /** Share of a step communication takes if not overlapped with {@code computeSeconds} of compute. */
        public double share(double computeSeconds) {
            return seconds / (seconds + computeSeconds);
        }
    }

    /**
     * Predicts every strategy of {@code request} on every source.
     *
     * @throws IllegalArgumentException one line naming what is wrong: a source without a needed
     *     collective, a GPU count a source never measured (without {@code extrapolateGpus}), a model
     *     lacking what a strategy needs
     */
    public static List<Row> predict(Request request, List<Source> sources) {
        List<Row> rows = new ArrayList<>();
        for (Source source : sources) {
            for (Strategy s : request.strategies()) {
                rows.add(row(request, source, s.step(request.model(), request.gpus(), request.bucketBytes(),
                        request.microBatches())));
            }
        }
        return rows;
    }

    private static Row row(Request request, Source source, Strategy.Step step) {
        int n = request.gpus();
        double total = 0;
        double low = 0;
        double high = 0;
        Set<String> methods = new LinkedHashSet<>();
        Set<String> flags = new LinkedHashSet<>();
        Set<String> curves = new LinkedHashSet<>();
        Set<String> derived = new LinkedHashSet<>();
        Set<String> outside = new LinkedHashSet<>();
        for (Strategy.Message m : step.messages()) {
            Source.Candidate c = curveFor(source, m.op(), request, step.strategy(), flags);
            if (c.op() != m.op()) {
                derived.add(m.op().label());
            }
            Curve.Estimate e = c.curve().predict(m.sizeBytes(), request.method());
            double perCall = m.op().factor(n);
            total += m.count() * perCall * e.seconds();
            low += m.count() * perCall * e.lowSeconds();
            high += m.count() * perCall * e.highSeconds();
            methods.add(e.method());
            curves.add(c.curve().toString());
            if (e.outside()) {
                outside.add(Sizes.format(m.sizeBytes()) + " " + m.op().label() + " outside the measured "
                        + (c.curve().points().size() == 1 ? Sizes.format(c.curve().minBytes()) + " only"
                        : Sizes.format(c.curve().minBytes()) + ".." + Sizes.format(c.curve().maxBytes())));
            }
            if (c.curve().singleGpu()) {
                flags.add(Measurement.SINGLE_GPU);
            }
        }
        derived.remove(Comm.SEND.label());
        if (!derived.isEmpty()) {
            flags.add(String.join(" and ", derived) + " from all-reduce bus bandwidth (a ring all-reduce is a "
                    + "reduce-scatter then an all-gather)");
        }
        if (!outside.isEmpty()) {
            flags.add("extrapolated: " + String.join(", ", outside));
        }
        return new Row(source, step, total, low, high, methods, flags, curves);
    }

    /** The curve for {@code op}: measured directly, else derived from all-reduce (flagged); throws if neither. */
    private static Source.Candidate curveFor(Source source, Comm op, Request request, Strategy strategy,
                                             Set<String> flags) {
        int n = request.gpus();
        Optional<Source.Candidate> direct = source.curve(op, request.model().dtype(), n);
        Source.Candidate c;
        if (direct.isPresent()) {
            c = direct.get();
        } else {
            Optional<Source.Candidate> allReduce = op == Comm.ALL_REDUCE ? Optional.empty()
                    : source.curve(Comm.ALL_REDUCE, request.model().dtype(), n);
            if (allReduce.isEmpty()) {
                throw new IllegalArgumentException(source.label() + " has no " + op.label() + (op == Comm.ALL_REDUCE
                        ? "" : " nor all-reduce") + " bus bandwidth on 2 or more ranks, which " + strategy.label()
                        + " needs (it has: " + source.measuredSummary() + "); give a source that measured "
                        + (op == Comm.SEND ? "copies between two GPUs or " : "") + "NCCL all-reduce, e.g. nccl-tests "
                        + "all_reduce_perf output or a result folder of 'p2pbench run --paths NCCL'");
            }
            c = allReduce.get();
            if (op == Comm.SEND) {
                flags.add("send time from all-reduce bus bandwidth (a ring's bus bandwidth is about one link's "
                        + "one-way bandwidth)");
            }
        }
        boolean collective = c.op() != Comm.SEND;
        if (collective && c.curve().ranks() != n) {
            if (!request.extrapolateGpus()) {
                throw new IllegalArgumentException("--gpus " + n + ": " + source.label() + " measured "
                        + c.op().label() + " on " + c.curve().ranks() + " ranks only; use --gpus "
                        + c.curve().ranks() + ", or add --extrapolate-gpus to use its bus bandwidth for " + n
                        + " GPUs (flagged)");
            }
            flags.add("group of " + n + " predicted from " + c.curve().ranks() + " measured ranks (bus bandwidth held)");
        }
        return c;
    }

    /** The table and its notes as Markdown. */
    public static String markdown(Request request, List<Source> sources, List<Row> rows, String command) {
        StringBuilder md = new StringBuilder("# p2pbench whatif\n\n");
        if (command != null) {
            md.append("Made by `").append(command).append("`.\n\n");
        }
        TrainingModel m = request.model();
        md.append(String.format(Locale.ROOT, "Model %s: %s of gradients. Each strategy alone on %d GPUs; "
                        + "data parallel and ZeRO-1/2 in %s buckets, ZeRO-3/FSDP per layer, pipeline in %d "
                        + "micro-batch%s. GB = 10^9 bytes; bandwidth decimal GB/s. Times assume no overlap with compute "
                        + "or between messages. Method %s. Interval: the alpha-beta fit's 95%% interval (alpha and "
                        + "1/beta standard errors, covariance left out), or the measured 95%% t-intervals "
                        + "interpolated; none where a source gives one value per size.%n%n",
                m.describe(), gb(m.gradientBytes()), request.gpus(), Sizes.format(request.bucketBytes()),
                request.microBatches(), request.microBatches() == 1 ? "" : "es", switch (request.method()) {
                    case AUTO -> "auto: interpolation of the measured curve inside its sizes, the alpha-beta fit outside";
                    case FIT -> "fit: the alpha-beta fit wherever a curve has one";
                    case INTERPOLATE -> "interpolate: the measured curve, held at its ends";
                }));
        md.append("## Sources\n\n| source | origin | measures |\n|---|---|---|\n");
        for (Source s : sources) {
            md.append("| ").append(s.label()).append(" | ").append(s.origin()).append(" | ")
                    .append(s.measuredSummary()).append(" |\n");
        }
        boolean share = request.computeSeconds() != null;
        md.append("\n## Communication per training step\n\n| source | strategy | bytes sent per GPU | time per step | "
                + "95% interval |" + (share ? String.format(Locale.ROOT, " share of a step (compute %s) |",
                seconds(request.computeSeconds())) : "") + " method | flags |\n|---|---|---|---|---|"
                + (share ? "---|" : "") + "---|---|\n");
        for (Row r : rows) {
            md.append("| ").append(r.source().label()).append(" | ").append(r.step().strategy().label()).append(" | ")
                    .append(gb(r.step().bytesPerGpu())).append(" | ").append(seconds(r.seconds())).append(" | ")
                    .append(Double.isFinite(r.lowSeconds()) && Double.isFinite(r.highSeconds())
                            ? seconds(r.lowSeconds()) + " .. " + seconds(r.highSeconds()) : "none (one value per size)")
                    .append(" | ");
            if (share) {
                md.append(String.format(Locale.ROOT, "%.1f%%", 100 * r.share(request.computeSeconds()))).append(" | ");
            }
            md.append(String.join("; ", r.methods())).append(" | ")
                    .append(r.flags().isEmpty() ? "inside what was measured" : "**" + String.join("; ", r.flags()) + "**")
                    .append(" |\n");
        }
        md.append("\n## Messages of one step\n\n| strategy | collective | message | messages | bytes sent per GPU | carries |\n"
                + "|---|---|---|---|---|---|\n");
        Set<Strategy> seen = new LinkedHashSet<>();
        for (Row r : rows) {
            if (seen.add(r.step().strategy())) {
                for (Strategy.Message msg : r.step().messages()) {
                    md.append("| ").append(r.step().strategy().label()).append(" | ").append(msg.op().label())
                            .append(" | ").append(Sizes.format(msg.sizeBytes())).append(" | ").append(msg.count())
                            .append(" | ").append(gb(msg.bytesPerGpu(request.gpus()))).append(" | ")
                            .append(msg.what()).append(" |\n");
                }
            }
        }
        md.append("\n## Curves used\n\n");
        Set<String> curves = new LinkedHashSet<>();
        for (Row r : rows) {
            for (String c : r.curves()) {
                if (curves.add(r.source().label() + ": " + c)) {
                    md.append("- ").append(r.source().label()).append(": ").append(c).append('\n');
                }
            }
        }
        return md.toString();
    }

    /** Decimal gigabytes: {@code 245.00 GB}. */
    static String gb(double bytes) {
        return String.format(Locale.ROOT, "%.2f GB", bytes / 1e9);
    }

    /** {@code 1.234 s}, {@code 12.3 ms}, {@code 45.6 µs}. */
    static String seconds(double s) {
        if (s >= 1) {
            return String.format(Locale.ROOT, "%.3f s", s);
        }
        if (s >= 1e-3) {
            return String.format(Locale.ROOT, "%.2f ms", s * 1e3);
        }
        return String.format(Locale.ROOT, "%.1f µs", s * 1e6);
    }
}
