package io.p2pbench.cli;

import io.p2pbench.files.FileProblem;
import io.p2pbench.report.Compare;
import io.p2pbench.report.Reporter;
import io.p2pbench.report.StagedOutput;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.render.MarkdownSafety;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.whatif.Curve;
import io.p2pbench.whatif.GradientType;
import io.p2pbench.whatif.LeaveOneOut;
import io.p2pbench.whatif.Source;
import io.p2pbench.whatif.Strategy;
import io.p2pbench.whatif.TrainingModel;
import io.p2pbench.whatif.WhatIf;
import io.p2pbench.whatif.WhatIfChart;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code p2pbench whatif}: what gradient and activation synchronisation would cost per training
 * step on each source (a result folder, nccl-tests or nvbandwidth output, or a public reference
 * machine), per strategy; writes {@code whatif.md} and the chart. Needs no GPU. With
 * {@code --validate}, the leave-one-out table of the sources' curves instead.
 */
@Command(name = "whatif", mixinStandardHelpOptions = true,
        description = {"Predicts communication time per training step per strategy (DP, ZeRO-1/2, ZeRO-3/FSDP, TP, PP) "
            + "from measured collective curves: result folders, nccl-tests output (text or -J), nvbandwidth -j, or "
            + "public reference machines (--reference).", "Example: p2pbench whatif --model DENSE_70B --dtype FP16 "
            + "--gpus 8 --reference all results/<fp>/<run>"})
final class WhatIfCommand implements Callable<Integer> {
    /** Markdown file of a prediction. */
    static final String MARKDOWN = "whatif.md";
    /** Markdown file of a validation. */
    static final String VALIDATION = "whatif-validate.md";
    /** Where the files go without --out: beside the reports, never into a checkout's committed charts/. */
    static final Path DEFAULT_OUT = Path.of(Reporter.DEFAULT_ROOT, "whatif");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "SOURCE",
            description = "Result folder, nccl-tests output (printed or -J JSON) or nvbandwidth -j JSON.")
    List<Path> sources = new ArrayList<>();

    @Option(names = "--reference", split = ",", paramLabel = "ID",
            description = "Public reference machines (not measured here): all, or ids of: ${COMPLETION-CANDIDATES}.",
            completionCandidates = ReferenceIds.class)
    List<String> references = new ArrayList<>();

    @Option(names = "--model", paramLabel = "PRESET", description = "DENSE_8B, DENSE_13B or DENSE_70B "
            + "(Llama-class shapes, 4096 tokens per step). Default: DENSE_70B unless --params is given (not both).")
    String model;

    @Option(names = "--params", paramLabel = "COUNT", description = "Parameter count of a custom model, e.g. 70B, "
            + "6.7B, 350M (instead of --model; with --layers, --hidden, --tokens where a strategy needs them).")
    String params;

    @Option(names = "--layers", paramLabel = "N", description = "Transformer layers (ZeRO-3/FSDP, TP).")
    Integer layers;

    @Option(names = "--hidden", paramLabel = "N", description = "Hidden size (TP, PP).")
    Integer hidden;

    @Option(names = "--tokens", paramLabel = "N", description = "Tokens per step per model replica (TP, PP).")
    Long tokens;

    @Option(names = "--dtype", paramLabel = "TYPE", defaultValue = "FP16",
            description = "Gradient type: FP16, BF16 or FP32. Default: ${DEFAULT-VALUE}.")
    String dtype;

    @Option(names = "--gpus", paramLabel = "N", defaultValue = "8", description = "GPUs. Default: ${DEFAULT-VALUE}.")
    int gpus;

    @Option(names = "--strategies", split = ",", paramLabel = "S", defaultValue = "DP,ZERO12,ZERO3,TP,PP",
            description = "DP, ZERO1, ZERO2, ZERO3 (FSDP), TP, PP. Default: ${DEFAULT-VALUE}.")
    List<String> strategies;

    @Option(names = "--bucket", paramLabel = "SIZE", converter = RunCommand.SizeConverter.class, defaultValue = "25M",
            description = "Gradient bucket of DP and ZeRO-1/2. Default: ${DEFAULT-VALUE} (PyTorch DDP's).")
    long bucketBytes;

    @Option(names = "--micro-batches", paramLabel = "N", defaultValue = "1",
            description = "Pipeline micro-batches per step. Default: ${DEFAULT-VALUE}.")
    int microBatches;

    @Option(names = "--method", paramLabel = "M", defaultValue = "auto",
            description = "auto (fit where 3+ sizes, else interpolation), fit or interpolate. Default: ${DEFAULT-VALUE}.")
    String method;

    @Option(names = "--extrapolate-gpus",
            description = "Allow a source measured on another group size (its bus bandwidth is used; flagged).")
    boolean extrapolateGpus;

    @Option(names = "--compute-seconds", paramLabel = "S",
            description = "Compute time per step: adds the share of a step communication takes if not overlapped.")
    Double computeSeconds;

    @Option(names = "--validate", description = "Leave-one-out validation of the sources' curves instead.")
    boolean validate;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where whatif.md and the chart go: a new or empty folder, or one an earlier whatif or "
                    + "report wrote. Default: reports/whatif.")
    Path out;

    @CommandLine.Mixin
    NvbandwidthSizeOption nvbandwidthSize;

    /** What {@code --reference all} left out for {@code --gpus}, said among the plain lines. */
    private final List<String> leftOut = new ArrayList<>();

    @Option(names = "--nccl-tests-op", paramLabel = "OP",
            description = "Collective of nccl-tests printed output that does not name its program.")
    String ncclTestsOperation;

    @Override
    public Integer call() throws IOException {
        String command = "p2pbench " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        Map<Source, ResultData> read = readSources();
        Path dir = out != null ? out : DEFAULT_OUT;
        OutputFolder.requireCanWrite("--out", dir); // one line, as report and compare give, not an internal error
        String shown;
        String name;
        StagedOutput.Output<Void> output;
        if (validate) {
            Map<String, Curve> curves = new LinkedHashMap<>();
            read.forEach((s, d) -> curves.putAll(LeaveOneOut.curves(s, d)));
            String md = LeaveOneOut.markdown(curves, command);
            shown = md;
            name = VALIDATION;
            output = (staging, written) -> {
                written.add(write(staging.resolve(VALIDATION), md));
                return null;
            };
        } else {
            WhatIf.Request request = request();
            List<Source> list = new ArrayList<>(read.keySet());
            List<WhatIf.Row> rows;
            try {
                rows = WhatIf.predict(request, list);
            } catch (IllegalArgumentException e) {
                throw new UserInputException(e.getMessage());
            }
            List<String> plain = new ArrayList<>(WhatIf.headlines(request, list, rows));
            plain.addAll(leftOut);
            StringBuilder sb = new StringBuilder(WhatIf.markdown(request, list, rows, command));
            sb.append("\n![time per step by strategy](").append(WhatIfChart.STEM).append(".svg)\n");
            // The plain lines come first on the terminal and in the file; a Markdown line break ends each.
            String lines = String.join("  \n", plain) + "\n\n";
            shown = lines.replace("  \n", "\n") + sb;
            name = MARKDOWN;
            output = (staging, written) -> {
                written.add(WhatIfChart.write(request, rows, staging));
                written.add(write(staging.resolve(MARKDOWN), "# p2pbench whatif\n\n" + lines + sb));
                return null;
            };
        }
        try {
            // The folder is owned as a report's is: a user's own whatif.md there is never replaced.
            if (out == null) {
                StagedOutput.writeDefault(dir, "whatif output", output);
            } else {
                StagedOutput.write(dir, "whatif output", output);
            }
        } catch (IOException e) {
            throw new UserInputException(FileProblem.of(e));
        }
        spec.commandLine().getOut().print(shown);
        spec.commandLine().getOut().println("Written to " + dir.resolve(name));
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** Writes a Markdown file, its text from input made safe ({@link MarkdownSafety}). */
    private static Path write(Path file, String text) throws IOException {
        AtomicFiles.write(file, MarkdownSafety.document(text));
        return file;
    }

    /** The sources in the order given, then the reference machines; null data for references. */
    private Map<Source, ResultData> readSources() {
        Map<Source, ResultData> read = new LinkedHashMap<>();
        String op;
        try {
            op = Compare.ncclTestsOperation(ncclTestsOperation);
        } catch (BadInputException e) {
            throw new UserInputException(e.getMessage());
        }
        ImportOptions.requireAFileInput(spec.commandLine(), sources);
        for (Path p : SameFolders.once(sources, spec.commandLine().getOut())) {
            try {
                ResultData d = Compare.read(p, nvbandwidthSize.bytes, op);
                read.put(Source.of(d), d);
            } catch (BadInputException e) {
                throw new UserInputException(e.getMessage());
            }
        }
        Map<String, Source> known = Source.references();
        boolean all = references.stream().anyMatch(r -> r.equalsIgnoreCase("all"));
        if (all) {
            List<Source> fitting = known.values().stream().filter(s -> validate || extrapolateGpus
                    || s.candidates().stream().allMatch(c -> c.curve().ranks() == gpus)).toList();
            List<Source> other = known.values().stream().filter(s -> !fitting.contains(s)).toList();
            if (!other.isEmpty() && !fitting.isEmpty()) {
                leftOut.add("--gpus " + gpus + " leaves out " + String.join(", ", other.stream().map(s -> s.label()
                        .replace(" (" + Source.REFERENCE_LABEL + ")", "") + " (" + s.candidates().get(0).curve().ranks()
                        + " GPUs)").toList()) + ": public references are predicted for the GPU count they were "
                        + "measured on; add --extrapolate-gpus to include them (flagged)");
            }
            if (fitting.isEmpty()) {
                throw new UserInputException("--reference all: no reference machine has " + gpus + " GPUs (they have "
                        + known.values().stream().map(s -> String.valueOf(s.candidates().get(0).curve().ranks()))
                        .distinct().toList() + "); use --gpus 8 or 4, or add --extrapolate-gpus");
            }
            fitting.forEach(s -> read.put(s, null));
        }
        for (String r : references) {
            if (r.equalsIgnoreCase("all")) {
                continue;
            }
            Source s = known.get(r.toLowerCase(Locale.ROOT));
            if (s == null) {
                throw new UserInputException("--reference '" + r + "' is not a reference machine; use all or one of "
                        + String.join(", ", known.keySet()));
            }
            read.put(s, null);
        }
        if (read.isEmpty()) {
            throw new UserInputException("no source: give result folders, nccl-tests or nvbandwidth files, "
                    + "or --reference all (public reference machines)");
        }
        return read;
    }

    private WhatIf.Request request() {
        try {
            GradientType type = GradientType.parse(dtype);
            TrainingModel base;
            if (params != null && model != null) {
                // Both say how many parameters the model has: refused rather than one silently winning.
                throw new IllegalArgumentException("--model " + model + " and --params " + params + " both give the "
                        + "model's size; give --model alone, or --params with --layers, --hidden and --tokens as the "
                        + "strategies need them");
            }
            if (params != null) {
                base = new TrainingModel("custom", TrainingModel.parseParams(params), 0, 0, 0, type);
            } else {
                base = TrainingModel.Preset.parse(model == null ? "DENSE_70B" : model).model(type);
            }
            within("--layers", layers, MAX_LAYERS);
            within("--hidden", hidden, MAX_HIDDEN);
            within("--tokens", tokens, MAX_TOKENS);
            TrainingModel m = new TrainingModel(base.name(), base.params(), layers != null ? layers : base.layers(),
                    hidden != null ? hidden : base.hidden(), tokens != null ? tokens : base.tokens(), type);
            if (gpus < 2 || gpus > 1024) {
                throw new IllegalArgumentException("--gpus " + gpus + " is not a GPU count from 2 to 1024");
            }
            if (microBatches < 1) {
                throw new IllegalArgumentException("--micro-batches " + microBatches + " must be 1 or more");
            }
            if (computeSeconds != null && !(computeSeconds > 0 && Double.isFinite(computeSeconds))) {
                throw new IllegalArgumentException("--compute-seconds "
                        + Main.asTyped(spec.commandLine(), "--compute-seconds", computeSeconds)
                        + " must be a positive number of seconds, e.g. 2.5");
            }
            List<Strategy> list = new ArrayList<>();
            for (String s : strategies) {
                Strategy parsed = Strategy.parse(s);
                if (!list.contains(parsed)) {
                    list.add(parsed);
                }
            }
            Curve.Method how = switch (method.toLowerCase(Locale.ROOT)) {
                case "auto" -> Curve.Method.AUTO;
                case "fit" -> Curve.Method.FIT;
                case "interpolate", "interpolation" -> Curve.Method.INTERPOLATE;
                default -> throw new IllegalArgumentException("--method '" + method + "' is not auto, fit or interpolate");
            };
            WhatIf.Request request = new WhatIf.Request(m, gpus, List.copyOf(list), bucketBytes, microBatches, how,
                    extrapolateGpus, computeSeconds);
            // Checks every strategy's needs (layers, hidden, tokens) before any source is looked at.
            list.forEach(s -> s.step(m, gpus, bucketBytes, microBatches));
            return request;
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage());
        }
    }

    /**
     * Bounds far beyond any model (the largest have about 100 layers and a hidden size of 16384), so that a
     * typo is named instead of turned into a step of exabytes; {@code tokens x hidden x 8 B} stays within 64 bits.
     */
    static final long MAX_LAYERS = 100_000;
    static final long MAX_HIDDEN = 1_000_000;
    static final long MAX_TOKENS = 1_000_000_000_000L;

    private static void within(String option, Number value, long max) {
        if (value != null && (value.longValue() <= 0 || value.longValue() > max)) {
            throw new IllegalArgumentException(option + " " + value + " is not from 1 to " + max);
        }
    }

    /** The reference machines' ids, for the help text. */
    static final class ReferenceIds implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> ids = new ArrayList<>(List.of("all"));
            ids.addAll(Source.references().keySet());
            return ids.iterator();
        }
    }
}
