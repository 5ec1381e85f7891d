package io.p2pbench.serving;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The serving scheduler: continuous batching with chunked prefill ({@link BatchPolicy#DESCRIPTION}).
 * One thread; each iteration admits what has arrived, builds a {@link StepShape}, runs it on the
 * {@link StepExecutor} and, when the step returns, stamps the tokens it produced with the clock's
 * time. New requests join between steps; an idle scheduler waits on the clock for the next arrival.
 * It depends on nothing but the executor interface and the clock, so it runs the same on the GPU
 * (host clock, real steps) and in tests (virtual clock, a model of the step's time).
 */
public final class ContinuousBatcher {
    private final StepExecutor executor;
    private final Clock clock;
    private final BatchPolicy policy;
    private final long kvTokens;

    /** One sequence in flight. */
    private static final class Seq {
        final Request r;
        int prefilled;
        int generated;
        int chunk;
        long first = -1;
        long last = -1;

        Seq(Request r) {
            this.r = r;
        }

        boolean decoding() {
            return prefilled == r.promptTokens();
        }
    }

    /**
     * @param policy the batch policy, cut to the executor's limits ({@link BatchPolicy#within})
     * @param kvTokens KV-cache tokens the plan holds (its capacity); a request is admitted only when its
     *     prompt plus output fits what the sequences in flight have not reserved
     */
    public ContinuousBatcher(StepExecutor executor, Clock clock, BatchPolicy policy, long kvTokens) {
        if (kvTokens < 1) {
            throw new IllegalArgumentException("KV cache of " + kvTokens + " tokens holds nothing");
        }
        this.executor = executor;
        this.clock = clock;
        this.policy = policy.within(executor.limits());
        this.kvTokens = kvTokens;
    }

    /** The policy it applies (within the executor's limits). */
    public BatchPolicy policy() {
        return policy;
    }

    /**
     * What one serving point produced. Times are from the point's start.
     *
     * @param measured the records of the measured requests, in arrival order (unfinished ones with -1 times)
     * @param warmupFinished warm-up requests that finished (excluded from every figure)
     * @param cooldownFinished requests after the measured ones that finished before the point ended (excluded)
     * @param capped whether the point hit its time cap before every measured request finished
     * @param elapsedNanos the point's length
     * @param steps steps run
     * @param deviceNanos device time of all steps, as the executor reported it
     * @param windowStartNanos arrival of the first measured request
     * @param windowEndNanos last token of the last measured request to finish (the cap when capped)
     * @param windowTokens output tokens (of every request) produced by steps ending inside the window
     * @param windowSteps steps ending inside the window
     * @param meanShape the mean step of the window (rounded), or null without steps there
     */
    public record Served(List<RequestRecord> measured, int warmupFinished, int cooldownFinished, boolean capped,
                         long elapsedNanos, int steps, long deviceNanos, long windowStartNanos, long windowEndNanos,
                         long windowTokens, int windowSteps, StepShape meanShape) {}

    /**
     * Serves {@code source} from now until every request with an index in
     * {@code [firstMeasured, endMeasured)} has all its tokens, or until {@code capNanos} have passed.
     * Requests before them are warm-up, after them cool-down; both load the server and are left out of
     * the figures. Requests still in flight at the end are dropped with the point.
     */
    public Served serve(Arrivals source, int firstMeasured, int endMeasured, long capNanos) {
        if (firstMeasured < 0 || endMeasured <= firstMeasured || capNanos <= 0) {
            throw new IllegalArgumentException("bad point: measured " + firstMeasured + ".." + endMeasured + ", cap "
                    + capNanos + " ns");
        }
        long t0 = clock.nanos();
        ArrayDeque<Seq> waiting = new ArrayDeque<>();
        List<Seq> running = new ArrayList<>();
        List<RequestRecord> measured = new ArrayList<>();
        Steps log = new Steps();
        long reserved = 0;
        int warmupDone = 0;
        int cooldownDone = 0;
        int measuredDone = 0;
        long deviceNanos = 0;
        boolean capped = false;
        Request pending = source.next();
        long now = 0;
        while (measuredDone < endMeasured - firstMeasured) {
            now = clock.nanos() - t0;
            if (now >= capNanos) {
                capped = true;
                break;
            }
            while (pending.arrivalNanos() <= now) {
                requireFits(pending);
                waiting.add(new Seq(pending));
                pending = source.next();
            }
            if (running.isEmpty() && waiting.isEmpty()) {
                clock.waitUntil(t0 + Math.min(pending.arrivalNanos(), capNanos));
                continue;
            }
            // Decodes first: one token for every running sequence whose prompt is in its cache.
            int decodes = 0;
            long decodeContext = 0;
            for (Seq s : running) {
                s.chunk = 0;
                if (s.decoding()) {
                    decodes++;
                    decodeContext += s.r.promptTokens() + s.generated - 1L;
                }
            }
            int budget = policy.stepTokens() - decodes;
            // Then prefill chunks: sequences already prefilling, in admission order, then waiting requests.
            int prefillSeqs = 0;
            int prefillTokens = 0;
            long prefillContext = 0;
            for (Seq s : running) {
                if (!s.decoding() && budget > 0) {
                    s.chunk = Math.min(budget, s.r.promptTokens() - s.prefilled);
                    budget -= s.chunk;
                    prefillSeqs++;
                    prefillTokens += s.chunk;
                    prefillContext += s.prefilled;
                }
            }
            while (budget > 0 && running.size() < policy.maxSequences() && !waiting.isEmpty()
                    && reserved + waiting.peek().r.contextTokens() <= kvTokens) {
                Seq s = waiting.poll();
                reserved += s.r.contextTokens();
                s.chunk = Math.min(budget, s.r.promptTokens());
                budget -= s.chunk;
                prefillSeqs++;
                prefillTokens += s.chunk;
                running.add(s);
            }
            if (decodes == 0 && prefillTokens == 0) {
                // Nothing running and the head of the queue cannot be admitted: cannot happen (requireFits).
                throw new IllegalStateException("scheduler stalled with " + waiting.size() + " waiting requests");
            }
            StepShape shape = new StepShape(decodes, decodeContext, prefillSeqs, prefillTokens, prefillContext);
            deviceNanos += executor.run(shape);
            now = clock.nanos() - t0;
            int produced = 0;
            for (int i = 0; i < running.size(); i++) {
                Seq s = running.get(i);
                if (s.decoding()) {
                    s.generated++;
                    s.last = now;
                    produced++;
                } else if (s.chunk > 0) {
                    s.prefilled += s.chunk;
                    if (s.decoding()) {
                        s.generated = 1;
                        s.first = now;
                        s.last = now;
                        produced++;
                    }
                }
                if (s.generated == s.r.outputTokens()) {
                    running.remove(i--);
                    reserved -= s.r.contextTokens();
                    int index = s.r.index();
                    if (index < firstMeasured) {
                        warmupDone++;
                    } else if (index >= endMeasured) {
                        cooldownDone++;
                    } else {
                        measuredDone++;
                        measured.add(record(s));
                    }
                }
            }
            log.add(now, produced, shape);
        }
        if (capped) {
            List<Seq> open = new ArrayList<>(running);
            open.addAll(waiting);
            for (Seq s : open) {
                if (s.r.index() >= firstMeasured && s.r.index() < endMeasured) {
                    measured.add(record(s));
                }
            }
            while (pending.index() < endMeasured) {
                if (pending.index() >= firstMeasured) {
                    measured.add(record(new Seq(pending)));
                }
                pending = source.next();
            }
        }
        measured.sort(Comparator.comparingInt(RequestRecord::index));
        long windowStart = measured.get(0).arrivalNanos();
        long windowEnd = capped ? now : measured.stream().mapToLong(RequestRecord::lastTokenNanos).max().orElse(now);
        return log.served(measured, warmupDone, cooldownDone, capped, now, deviceNanos, windowStart, windowEnd);
    }

    private void requireFits(Request r) {
        long most = Math.min(kvTokens, executor.limits().maxContextTokens());
        if (r.contextTokens() > most) {
            throw new IllegalArgumentException("request " + r.index() + " needs " + r.contextTokens() + " KV tokens (prompt "
                    + r.promptTokens() + " + output " + r.outputTokens() + "), more than a sequence may hold here ("
                    + most + ")");
        }
    }

    private static RequestRecord record(Seq s) {
        boolean done = s.generated == s.r.outputTokens();
        return new RequestRecord(s.r.index(), s.r.arrivalNanos(), s.r.promptTokens(), s.r.outputTokens(), s.first,
                done ? s.last : -1);
    }

    /** The steps of a point: when each ended, what it produced and its shape's components. */
    private static final class Steps {
        private long[] end = new long[1024];
        private int[] tokens = new int[1024];
        private long[][] parts = new long[5][1024];
        private int n;

        void add(long endNanos, int produced, StepShape s) {
            if (n == end.length) {
                end = Arrays.copyOf(end, 2 * n);
                tokens = Arrays.copyOf(tokens, 2 * n);
                for (int k = 0; k < parts.length; k++) {
                    parts[k] = Arrays.copyOf(parts[k], 2 * n);
                }
            }
            end[n] = endNanos;
            tokens[n] = produced;
            parts[0][n] = s.decodeSequences();
            parts[1][n] = s.decodeContextTokens();
            parts[2][n] = s.prefillSequences();
            parts[3][n] = s.prefillTokens();
            parts[4][n] = s.prefillContextTokens();
            n++;
        }

        Served served(List<RequestRecord> measured, int warmupDone, int cooldownDone, boolean capped, long elapsed,
                      long deviceNanos, long windowStart, long windowEnd) {
            long windowTokens = 0;
            int windowSteps = 0;
            double[] sums = new double[5];
            for (int i = 0; i < n; i++) {
                if (end[i] > windowStart && end[i] <= windowEnd) {
                    windowTokens += tokens[i];
                    windowSteps++;
                    for (int k = 0; k < 5; k++) {
                        sums[k] += parts[k][i];
                    }
                }
            }
            return new Served(List.copyOf(measured), warmupDone, cooldownDone, capped, elapsed, n, deviceNanos,
                    windowStart, windowEnd, windowTokens, windowSteps, windowSteps == 0 ? null : meanShape(sums, windowSteps));
        }

        private static StepShape meanShape(double[] sums, int steps) {
            int decodes = (int) Math.round(sums[0] / steps);
            int prefillSeqs = (int) Math.round(sums[2] / steps);
            int prefillTokens = (int) Math.round(sums[3] / steps);
            if (prefillSeqs == 0 || prefillTokens == 0) {
                prefillSeqs = 0;
                prefillTokens = 0;
            }
            if (decodes == 0 && prefillTokens == 0) {
                decodes = 1;
            }
            return new StepShape(decodes, decodes == 0 ? 0 : Math.round(sums[1] / steps), prefillSeqs, prefillTokens,
                    prefillSeqs == 0 ? 0 : Math.round(sums[4] / steps));
        }
    }
}
