package io.p2pbench.collective;

import io.p2pbench.files.OneLine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The GPUs of a collective, one per rank, written {@code 0,1,2,3}. A GPU may repeat ({@code 0,0,0,0}):
 * the algorithm and its checks then run on one GPU, and nothing crosses an interconnect.
 */
public record Group(List<Integer> devices) {
    /** Validates and copies. */
    public Group {
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("a group needs at least one GPU");
        }
        devices = List.copyOf(devices);
    }

    /**
     * The most ranks a parsed group may have: a collective of p2pbench runs on one machine, which has at most
     * 256 GPUs ({@code TopologyJson.MAX_GPUS}); a rank per GPU, or several ranks sharing a few.
     */
    public static final int MAX_RANKS = 256;

    /**
     * Parses {@code 0,1,2,3}; throws naming the bad text. Each index is checked on its own (a regular
     * expression over the whole list recursed once per index and overflowed the stack at about 900).
     */
    public static Group parse(String text) {
        String t = text == null ? "" : text.trim();
        String[] parts = t.split(",", -1);
        String malformed = "group '" + shown(text) + "' is malformed; write GPU indices separated by commas, e.g. "
                + "0,1,2,3 (a GPU may repeat: 0,0,0,0 runs every rank on GPU 0)";
        if (parts.length > MAX_RANKS) {
            throw new IllegalArgumentException("group '" + shown(text) + "' has " + parts.length + " ranks; a "
                    + "collective runs on one machine with at most " + MAX_RANKS + " ranks, e.g. 0,1,2,3");
        }
        List<Integer> out = new ArrayList<>();
        for (String part : parts) {
            String index = part.strip();
            if (index.isEmpty() || index.length() > 3 || !index.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException(malformed);
            }
            out.add(Integer.parseInt(index));
        }
        return new Group(out);
    }

    /** The text as a message shows it: control characters as {@code ?}, at most 60 characters. */
    private static String shown(String text) {
        return OneLine.shown(text, 60);
    }

    /** Number of ranks. */
    public int size() {
        return devices.size();
    }

    /** GPU of rank {@code rank}. */
    public int device(int rank) {
        return devices.get(rank);
    }

    /** Whether some GPU appears more than once: then the run is not an interconnect measurement. */
    public boolean repeatsDevices() {
        return devices.stream().distinct().count() < devices.size();
    }

    /**
     * Whether a collective over this group measures no interconnect, and is labelled single GPU: one rank, or
     * a GPU that two ranks share.
     */
    public boolean measuresNoInterconnect() {
        return size() == 1 || repeatsDevices();
    }

    /** Whether every rank is on one GPU. */
    public boolean singleGpu() {
        return devices.stream().distinct().count() == 1;
    }

    /** The distinct GPUs, as an array. */
    public int[] distinctDevices() {
        return devices.stream().distinct().mapToInt(Integer::intValue).toArray();
    }

    /** Throws naming the GPU if the group names one this machine lacks. */
    public void requireWithin(int gpuCount) {
        for (int d : devices) {
            if (d >= gpuCount) {
                throw new IllegalArgumentException("group '" + this + "' names GPU " + d + ", but this machine has "
                        + (gpuCount == 1 ? "only GPU 0" : "GPUs 0.." + (gpuCount - 1)));
            }
        }
    }

    @Override
    public String toString() {
        return String.join(",", devices.stream().map(String::valueOf).toList());
    }

    /** The ranks as an int array. */
    public int[] toArray() {
        return devices.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Group g && g.devices.equals(devices);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(toArray());
    }
}
