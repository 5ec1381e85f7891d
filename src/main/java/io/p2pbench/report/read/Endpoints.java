package io.p2pbench.report.read;

import io.p2pbench.topology.GpuPair;
import java.util.ArrayList;
import java.util.List;

/**
 * Between what a figure was measured, typed: an ordered GPU pair, one GPU and the host, a collective's
 * ranks, or several pairs pooled into one figure. {@link #text()} is the key's {@code pair} as the report
 * shows it.
 */
public sealed interface Endpoints {
    /** The text the report shows: {@code 0-1}, {@code GPU0}, {@code 0,1,2,3}, {@code 3 pairs}. */
    String text();

    /** A copy from one GPU to another (or within one, {@code 0-0}). */
    record Pair(GpuPair pair) implements Endpoints {
        @Override
        public String text() {
            return pair.toString();
        }

        /** The pair with its lower index first: the pair of both its directions. */
        public Pair unordered() {
            return pair.src() <= pair.dst() ? this : new Pair(pair.reversed());
        }
    }

    /** A copy between the host and one GPU. */
    record Host(int gpu) implements Endpoints {
        @Override
        public String text() {
            return "GPU" + gpu;
        }
    }

    /**
     * A collective's ranks, each the GPU it ran on: a local index ({@code 3}) or, for an nccl-tests job over
     * several hosts, {@code host:index}.
     *
     * @param ranks each rank's GPU as the report shows it
     * @param gpus each rank's local GPU index, or null where the ranks ran on GPUs of several hosts
     */
    record Ranks(List<String> ranks, List<Integer> gpus) implements Endpoints {
        /** Copies. */
        public Ranks {
            ranks = List.copyOf(ranks);
            gpus = gpus == null ? null : List.copyOf(gpus);
        }

        /** Ranks on local GPU indices. */
        public static Ranks ofGpus(List<Integer> gpus) {
            return new Ranks(gpus.stream().map(String::valueOf).toList(), gpus);
        }

        /** Ranks on GPUs of several hosts, each written {@code host:index}. */
        public static Ranks ofHosts(List<String> ranks) {
            return new Ranks(ranks, null);
        }

        @Override
        public String text() {
            return String.join(",", ranks);
        }

        /** How many ranks. */
        public int size() {
            return ranks.size();
        }
    }

    /** Several pairs of one link class pooled into one figure. */
    record Pooled(int pairs) implements Endpoints {
        @Override
        public String text() {
            return pairs + " pairs";
        }
    }

    /** The endpoints a key written as text names ({@link #text()}'s forms); throws naming the text otherwise. */
    static Endpoints parse(String text) {
        if (text.matches("\\d{1,4}-\\d{1,4}")) {
            return new Pair(GpuPair.parse(text));
        }
        if (text.matches("GPU\\d{1,4}")) {
            return new Host(Integer.parseInt(text.substring(3)));
        }
        if (text.matches("\\d{1,9} pairs")) {
            return new Pooled(Integer.parseInt(text.substring(0, text.indexOf(' '))));
        }
        List<Integer> gpus = new ArrayList<>();
        for (String g : text.split(",", -1)) {
            if (!g.matches("\\d{1,4}")) {
                gpus = null;
                break;
            }
            gpus.add(Integer.parseInt(g));
        }
        if (gpus != null) {
            return Ranks.ofGpus(gpus);
        }
        if (!text.isEmpty() && !text.contains(" ")) {
            return Ranks.ofHosts(List.of(text.split(",", -1)));
        }
        throw new IllegalArgumentException("pair '" + text + "' names no GPU pair, GPU or group");
    }
}
