package io.p2pbench.whatif;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.transfer.Sizes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
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
     * @param noInterval why there is no interval (null when there is one)
     * @param lowerBound whether the time is only a lower bound (a collective derived from an all-reduce the
     *     switch reduced, whose bus bandwidth no ring reaches)
     * @param fits whether the model's parameters and gradients fit the source's GPUs under this strategy (null:
     *     the source does not say how much memory its GPUs have)
     * @param singleGpu whether a curve it used was measured on one GPU (not an interconnect measurement)
     * @param methods how the message times were predicted
     * @param flags where the prediction leaves what was measured
     * @param curves the curves used
     */
    public record Row(Source source, Strategy.Step step, double seconds, double lowSeconds, double highSeconds,
                      String noInterval, boolean lowerBound, Boolean fits, boolean singleGpu, Set<String> methods,
                      Set<String> flags,
                      Set<String> curves) {
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
        Set<String> noInterval = new LinkedHashSet<>();
        Set<String> methods = new LinkedHashSet<>();
        Set<String> flags = new LinkedHashSet<>();
        Set<String> curves = new LinkedHashSet<>();
        Set<String> derived = new LinkedHashSet<>();
        Set<String> inSwitch = new LinkedHashSet<>();
        Set<String> outside = new LinkedHashSet<>();
        Source.Candidate switchReduced = null;
        boolean singleGpu = false;
        for (Strategy.Message m : step.messages()) {
            Source.Candidate c = curveFor(source, m.op(), request, step.strategy(), flags);
            if (c.op() != m.op() && c.inSwitchReduction() != null) {
                inSwitch.add(m.op().label());
                switchReduced = c;
            } else if (c.op() != m.op()) {
                derived.add(m.op().label());
            }
            Curve.Estimate e = c.curve().predict(m.sizeBytes(), request.method());
            double perCall = m.op().factor(n);
            total += m.count() * perCall * e.seconds();
            if (e.hasInterval()) {
                low += m.count() * perCall * e.lowSeconds();
                high += m.count() * perCall * e.highSeconds();
            } else {
                noInterval.addAll(e.noIntervalReasons());
            }
            methods.add(e.method());
            curves.add(c.curve().toString());
            if (e.outside()) {
                outside.add(Sizes.format(m.sizeBytes()) + " " + m.op().label() + " outside the measured "
                        + (c.curve().points().size() == 1 ? Sizes.format(c.curve().minBytes()) + " only"
                        : Sizes.format(c.curve().minBytes()) + ".." + Sizes.format(c.curve().maxBytes())));
            }
            if (c.curve().singleGpu()) {
                flags.add(Measurement.SINGLE_GPU);
                singleGpu = true;
            }
        }
        derived.remove(Comm.SEND.label());
        if (!derived.isEmpty()) {
            flags.add(String.join(" and ", derived) + " from all-reduce bus bandwidth (a ring all-reduce is a "
                    + "reduce-scatter then an all-gather)");
        }
        if (switchReduced != null) {
            flags.add(lowerBound(source, switchReduced, inSwitch));
            noInterval.add("the time is a lower bound");
        }
        if (!outside.isEmpty()) {
            flags.add("extrapolated: " + String.join(", ", outside));
        }
        double need = step.strategy().stateBytesPerGpu(request.model(), n);
        double memory = source.hardware().gpuMemoryBytes();
        Boolean fits = Double.isNaN(memory) ? null : need <= memory;
        if (Boolean.FALSE.equals(fits)) {
            flags.add("does not fit: at least " + gb(need) + " of parameters and gradients per GPU, the GPU has "
                    + gb(memory));
        }
        boolean interval = noInterval.isEmpty();
        return new Row(source, step, total, interval ? low : Double.NaN, interval ? high : Double.NaN,
                interval ? null : String.join("; ", noInterval), switchReduced != null, fits, singleGpu, methods, flags,
                curves);
    }

    /** The flag of a row whose collectives came from an all-reduce the switch reduced: its time is a lower bound. */
    private static String lowerBound(Source source, Source.Candidate c, Set<String> ops) {
        Curve.Point top = c.curve().points().stream().max(Comparator.comparingDouble(Curve.Point::gbps))
                .orElseThrow();
        double lineRate = source.hardware().lineRateGBps();
        return "a lower bound: " + String.join(" and ", ops) + " from an all-reduce the switch reduced ("
                + c.inSwitchReduction() + "), whose bus bandwidth reaches " + gbps(top.gbps()) + " GB/s at "
                + Sizes.format(top.sizeBytes()) + (Double.isNaN(lineRate) ? "" : ", above the "
                + gbps(lineRate) + " GB/s per-direction line rate that bounds them")
                + "; give a ring all-reduce curve (nccl-tests with NCCL_NVLS_ENABLE=0, or a p2pbench run with "
                + "--paths NCCL)";
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
                    : source.allReduceToDeriveFrom(request.model().dtype(), n);
            if (allReduce.isEmpty()) {
                throw new IllegalArgumentException(source.label() + " has no " + op.label() + (op == Comm.ALL_REDUCE
                        ? "" : " nor all-reduce") + " bus bandwidth on 2 or more ranks, which " + strategy.label()
                        + " needs (it has: " + source.measuredSummary() + "); give a source that measured "
                        + (op == Comm.SEND ? "copies between two GPUs or " : "") + "NCCL all-reduce, e.g. nccl-tests "
                        + "all_reduce_perf output or a result folder of 'p2pbench run --paths NCCL'");
            }
            c = allReduce.get();
            if (op == Comm.SEND && c.inSwitchReduction() == null) {
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

    /**
     * One plain line per source, before any table: the first requested strategy's time per step (data parallel
     * where requested; saying so where a curve of the source was measured on one GPU), then, where the source says how much memory its GPUs have, the strategies under which
     * the model does not fit, or that this was not checked.
     */
    public static List<String> headlines(Request request, List<Source> sources, List<Row> rows) {
        Strategy first = request.strategies().contains(Strategy.DP) ? Strategy.DP : request.strategies().get(0);
        List<String> out = new ArrayList<>();
        for (Source s : sources) {
            List<Row> mine = rows.stream().filter(r -> r.source() == s).toList();
            Row head = mine.stream().filter(r -> r.step().strategy() == first).findFirst().orElseThrow();
            out.add(s.label() + ": " + first.sync() + (head.lowerBound() ? " ≥ " : " ≈ ") + plain(head.seconds())
                    + " per step" + (head.lowerBound() ? " (a lower bound)" : "")
                    + (mine.stream().anyMatch(Row::singleGpu) ? "; " + Measurement.SINGLE_GPU : ""));
            List<Strategy> tooBig = mine.stream().filter(r -> Boolean.FALSE.equals(r.fits()))
                    .map(r -> r.step().strategy()).toList();
            if (!tooBig.isEmpty()) {
                out.add(s.label() + ": " + request.model().name() + " in " + request.model().dtype()
                        + " does not fit a GPU's " + gb(s.hardware().gpuMemoryBytes()) + " under "
                        + String.join(", ", tooBig.stream().map(Strategy::label).toList())
                        + ": its parameters and gradients alone take at least " + String.join(", ", tooBig.stream()
                        .map(t -> gb(t.stateBytesPerGpu(request.model(), request.gpus()))).toList()) + " per GPU");
            } else if (mine.stream().anyMatch(r -> r.fits() == null)) {
                out.add(s.label() + ": GPU memory not known, so whether " + request.model().name() + " fits is not "
                        + "checked");
            }
        }
        return out;
    }

    /** Decimal GB/s to four significant digits, without trailing zeros: {@code 480}, {@code 25.95}. */
    static String gbps(double v) {
        return new BigDecimal(String.format(Locale.ROOT, "%.4g", v)).stripTrailingZeros().toPlainString();
    }

    /** A time as a plain line says it: {@code 0.87 s}, {@code 8.75 s}, {@code 364.7 µs}. */
    static String plain(double s) {
        return s >= 0.1 ? String.format(Locale.ROOT, "%.2f s", s) : seconds(s);
    }

    /** The table and its notes as Markdown, without a title (the caller puts the plain lines first). */
    public static String markdown(Request request, List<Source> sources, List<Row> rows, String command) {
        StringBuilder md = new StringBuilder();
        if (command != null) {
            md.append("Made by `").append(command).append("`.\n\n");
        }
        TrainingModel m = request.model();
        md.append(String.format(Locale.ROOT, "Model %s: %s of gradients. Each strategy alone on %d GPUs; "
                        + "data parallel and ZeRO-1/2 in %s buckets, ZeRO-3/FSDP per layer, pipeline in %d "
                        + "micro-batch%s. GB = 10^9 bytes; bandwidth decimal GB/s. Times assume no overlap with compute "
                        + "or between messages. Method %s. Interval: the alpha-beta fit's 95%% interval (alpha and "
                        + "1/beta standard errors, covariance left out, Student t with n-2 degrees of freedom), only "
                        + "inside the measured sizes of a curve of 4 sizes or more; or the measured 95%% intervals of "
                        + "the median interpolated, inside the measured sizes; otherwise none, and the row says why. "
                        + "Bytes per GPU held: the least of the parameters and gradients a GPU keeps under the "
                        + "strategy; optimizer states and activations come on top.%n%n",
                m.describe(), gb(m.gradientBytes()), request.gpus(), Sizes.format(request.bucketBytes()),
                request.microBatches(), request.microBatches() == 1 ? "" : "es", switch (request.method()) {
                    case AUTO -> "auto: interpolation of the measured curve inside its sizes, the alpha-beta fit outside";
                    case FIT -> "fit: the alpha-beta fit wherever a curve has one";
                    case INTERPOLATE -> "interpolate: the measured curve, held at its ends";
                }));
        md.append("## Sources\n\n| source | origin | measures | GPU memory, line rate |\n|---|---|---|---|\n");
        for (Source s : sources) {
            Source.Hardware h = s.hardware();
            md.append("| ").append(s.label()).append(" | ").append(s.origin()).append(" | ")
                    .append(s.measuredSummary()).append(" | ")
                    .append(Double.isNaN(h.gpuMemoryBytes()) ? "memory not known" : gb(h.gpuMemoryBytes()) + " ("
                            + h.memoryFrom() + ")")
                    .append(Double.isNaN(h.lineRateGBps()) ? "" : "; " + gbps(h.lineRateGBps()) + " GB/s per direction ("
                            + h.lineRateFrom() + ")").append(" |\n");
        }
        boolean share = request.computeSeconds() != null;
        md.append("\n## Communication per training step\n\n| source | strategy | bytes sent per GPU | bytes held per GPU "
                + "| time per step | 95% interval |" + (share ? String.format(Locale.ROOT, " share of a step (compute %s) |",
                seconds(request.computeSeconds())) : "") + " method | flags |\n|---|---|---|---|---|---|"
                + (share ? "---|" : "") + "---|---|\n");
        for (Row r : rows) {
            md.append("| ").append(r.source().label()).append(" | ").append(r.step().strategy().label()).append(" | ")
                    .append(gb(r.step().bytesPerGpu())).append(" | ")
                    .append(gb(r.step().strategy().stateBytesPerGpu(m, request.gpus())))
                    .append(Boolean.FALSE.equals(r.fits()) ? " (does not fit)" : "").append(" | ")
                    .append(r.lowerBound() ? "≥ " : "").append(seconds(r.seconds())).append(" | ")
                    .append(r.noInterval() == null ? seconds(r.lowSeconds()) + " .. " + seconds(r.highSeconds())
                            : "none: " + r.noInterval())
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
