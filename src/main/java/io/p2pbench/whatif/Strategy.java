package io.p2pbench.whatif;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Training strategies and the communication of one step of each, every strategy alone over all
 * {@code n} GPUs. With P parameters, G = P x (bytes per element) gradient bytes, and the same type
 * for parameters and activations, each GPU sends per step:
 *
 * <ul>
 *   <li>data parallel: one all-reduce of all gradients, 2(n-1)/n x G, in buckets (PyTorch DDP
 *       all-reduces 25 MiB buckets by default);</li>
 *   <li>ZeRO-1/2: a reduce-scatter of the gradients and an all-gather of the updated parameters,
 *       (n-1)/n x G each, 2(n-1)/n x G in all, in buckets;</li>
 *   <li>ZeRO-3/FSDP: per layer, an all-gather of its parameters in the forward pass and again in the
 *       backward pass, and a reduce-scatter of its gradients: 3(n-1)/n x G, in messages of one layer;</li>
 *   <li>tensor parallel (Megatron): per layer, two all-reduces of the [tokens x hidden] activation A
 *       in the forward pass and two in the backward pass: layers x 4 x 2(n-1)/n x A;</li>
 *   <li>pipeline parallel: each boundary sends its activation forward and receives its gradient back,
 *       so a middle stage sends A forward and A back (2A; with 2 stages each GPU sends A), split into
 *       micro-batches.</li>
 * </ul>
 *
 * Not counted: optimizer state traffic (none in these strategies), embedding and sequence-parallel
 * variants, overlap with compute (see the compute share), and any traffic between nodes.
 */
public enum Strategy {
    /** Data parallel: all-reduce of all gradients. */
    DP("data parallel", "data-parallel gradient sync"),
    /** ZeRO stage 1 or 2: reduce-scatter of gradients, all-gather of parameters. */
    ZERO12("ZeRO-1/2", "ZeRO-1/2 gradient and parameter sync"),
    /** ZeRO stage 3 or FSDP: all-gathers in forward and backward plus reduce-scatter, per layer. */
    ZERO3("ZeRO-3/FSDP", "ZeRO-3/FSDP parameter and gradient sync"),
    /** Tensor parallel: per-layer all-reduces of activations. */
    TP("tensor parallel", "tensor-parallel activation all-reduces"),
    /** Pipeline parallel: boundary activations and their gradients. */
    PP("pipeline parallel", "pipeline-parallel activation sends");

    private final String label;
    private final String sync;

    Strategy(String label, String sync) {
        this.label = label;
        this.sync = sync;
    }

    /** How tables name the strategy. */
    public String label() {
        return label;
    }

    /** What its communication is, in a sentence: {@code data-parallel gradient sync}. */
    public String sync() {
        return sync;
    }

    /**
     * The least each GPU holds of the model's parameters and gradients (in the model's type) under this strategy
     * on {@code gpus} GPUs: data parallel a whole replica of both; ZeRO-1/2 all parameters and its shard of the
     * gradients (ZeRO-2; ZeRO-1 keeps them all); ZeRO-3/FSDP, tensor and pipeline parallel a 1/n shard of both.
     * Optimizer states, activations and workspace come on top: a GPU with less memory than this cannot hold it.
     */
    public double stateBytesPerGpu(TrainingModel model, int gpus) {
        double g = model.gradientBytes();
        return switch (this) {
            case DP -> 2 * g;
            case ZERO12 -> g + g / gpus;
            case ZERO3, TP, PP -> 2 * g / gpus;
        };
    }

    /**
     * One kind of message of a step.
     *
     * @param op the collective
     * @param sizeBytes bytes of one message (nccl-tests' size)
     * @param count how many such messages one step has
     * @param what what the messages carry
     */
    public record Message(Comm op, long sizeBytes, long count, String what) {
        /** Bytes each of {@code n} GPUs sends for all these messages. */
        public double bytesPerGpu(int n) {
            return op.factor(n) * sizeBytes * count;
        }
    }

    /**
     * What one step sends.
     *
     * @param strategy the strategy
     * @param gpus GPUs it runs on
     * @param messages the messages of one step
     */
    public record Step(Strategy strategy, int gpus, List<Message> messages) {
        /** Bytes the busiest GPU sends per step. */
        public double bytesPerGpu() {
            return messages.stream().mapToDouble(m -> m.bytesPerGpu(gpus)).sum();
        }
    }

    /** Parses a strategy name or alias ({@code DP}, {@code ZERO1}, {@code ZERO2}, {@code FSDP}, ...). */
    public static Strategy parse(String text) {
        String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace("-", "").replace("_", "")
                .replace("/", "");
        return switch (t) {
            case "DP", "DDP", "DATAPARALLEL" -> DP;
            case "ZERO1", "ZERO2", "ZERO12" -> ZERO12;
            case "ZERO3", "FSDP", "ZERO3FSDP" -> ZERO3;
            case "TP", "TENSORPARALLEL" -> TP;
            case "PP", "PIPELINEPARALLEL" -> PP;
            default -> throw new IllegalArgumentException("strategy '" + text + "' is not one of DP, ZERO1, ZERO2, "
                    + "ZERO3 (or FSDP), TP, PP");
        };
    }

    /**
     * The messages of one step of {@code model} on {@code gpus} GPUs.
     *
     * @param bucketBytes gradient bucket size of data parallel and ZeRO-1/2
     * @param microBatches micro-batches per step (pipeline parallel's message is A / microBatches)
     * @throws IllegalArgumentException naming the model field a strategy needs and lacks
     */
    public Step step(TrainingModel model, int gpus, long bucketBytes, int microBatches) {
        if (gpus < 2) {
            throw new IllegalArgumentException("--gpus " + gpus + ": a strategy needs at least 2 GPUs to communicate");
        }
        if (bucketBytes <= 0 || microBatches <= 0) {
            throw new IllegalArgumentException("bucket size and micro-batches must be positive");
        }
        long g = model.gradientBytes();
        List<Message> out = new ArrayList<>();
        switch (this) {
            case DP -> buckets(out, Comm.ALL_REDUCE, g, bucketBytes, "gradients");
            case ZERO12 -> {
                buckets(out, Comm.REDUCE_SCATTER, g, bucketBytes, "gradients");
                buckets(out, Comm.ALL_GATHER, g, bucketBytes, "updated parameters");
            }
            case ZERO3 -> {
                int layers = need(model.layers(), "--layers");
                long unit = g / layers;
                if (unit == 0) {
                    throw new IllegalArgumentException(label + ": --layers " + layers + " splits " + g + " B of "
                            + "gradients into layers of less than one byte; give at most " + g + " layers");
                }
                long rest = g % layers;
                out.add(new Message(Comm.ALL_GATHER, unit, 2L * layers, "one layer's parameters, forward and backward"));
                out.add(new Message(Comm.REDUCE_SCATTER, unit, layers, "one layer's gradients"));
                if (rest > 0) {
                    out.add(new Message(Comm.ALL_GATHER, rest, 2, "remainder of the parameters"));
                    out.add(new Message(Comm.REDUCE_SCATTER, rest, 1, "remainder of the gradients"));
                }
            }
            case TP -> {
                int layers = need(model.layers(), "--layers");
                need(model.hidden(), "--hidden");
                need(model.tokens(), "--tokens");
                out.add(new Message(Comm.ALL_REDUCE, model.activationBytes(), 4L * layers,
                        "[tokens x hidden] activations, 2 per layer forward and 2 backward"));
            }
            case PP -> {
                need(model.hidden(), "--hidden");
                long tokens = need(model.tokens(), "--tokens");
                if (microBatches > tokens) {
                    throw new IllegalArgumentException(label + ": --micro-batches " + microBatches
                            + " is more than the " + tokens + " tokens of a step; a micro-batch holds one token or "
                            + "more");
                }
                long a = model.activationBytes();
                long size = a / microBatches;
                long perDirection = gpus == 2 ? 1 : 2;
                out.add(new Message(Comm.SEND, size, perDirection * microBatches, gpus == 2
                        ? "boundary activation (stage 0) or its gradient (stage 1)"
                        : "boundary activation forward and its gradient back (a middle stage)"));
                if (a % microBatches != 0) {
                    out.add(new Message(Comm.SEND, a % microBatches, perDirection, "remainder of the micro-batches"));
                }
            }
            default -> throw new IllegalStateException(name());
        }
        return new Step(this, gpus, List.copyOf(out));
    }

    private static void buckets(List<Message> out, Comm op, long total, long bucket, String what) {
        if (total >= bucket) {
            out.add(new Message(op, bucket, total / bucket, what + " in buckets"));
        }
        if (total % bucket > 0) {
            out.add(new Message(op, total % bucket, 1, what + ", last bucket"));
        }
    }

    private long need(long value, String option) {
        if (value <= 0) {
            throw new IllegalArgumentException(label + " needs " + option + " (or a --model preset that has it)");
        }
        return value;
    }

    private int need(int value, String option) {
        return (int) need((long) value, option);
    }
}
