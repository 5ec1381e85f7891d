package io.p2pbench.doctor;

import io.p2pbench.topology.LinkSpeeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The PCIe tree as sysfs shows it: where a device sits (every bridge between it and its host
 * bridge), its link now and at most, its NUMA node, and which devices are NVIDIA GPUs. Every value
 * read is checked; a value that does not parse is unknown with the file and the text seen.
 */
final class PciTree {
    /** A PCI bus id as sysfs spells it, e.g. {@code 0000:18:00.0}. */
    static final Pattern BUS_ID = Pattern.compile("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
    /** A host bridge (root bus) in sysfs, e.g. {@code pci0000:00}. */
    static final Pattern ROOT_BUS = Pattern.compile("pci[0-9a-f]{4,8}:[0-9a-f]{2}");
    private static final String DEVICES = "sys/bus/pci/devices/";
    private static final int NVIDIA = 0x10de;

    private PciTree() {}

    /**
     * Where a device sits: its host bridge ({@code pci0000:00}), then every bridge down to it, then
     * the device itself.
     */
    static Answer<List<String>> chain(MachineSource src, String busId) {
        String path;
        try {
            path = src.devicePath(busId);
        } catch (MachineSource.Unreadable e) {
            return Answer.unknown(e.getMessage());
        }
        String[] parts = path.split("/");
        int root = -1;
        for (int i = 0; i < parts.length; i++) {
            if (ROOT_BUS.matcher(parts[i]).matches()) {
                root = i;
            }
        }
        if (root < 0 || !parts[parts.length - 1].equals(busId)) {
            return Answer.unknown("/" + DEVICES + busId + " leads to /" + path + ", not a path below a PCI host bridge");
        }
        List<String> chain = new ArrayList<>();
        chain.add(parts[root]);
        for (int i = root + 1; i < parts.length; i++) {
            if (!BUS_ID.matcher(parts[i]).matches()) {
                return Answer.unknown("/" + path + " has '" + parts[i] + "' where a PCI bus id belongs");
            }
            chain.add(parts[i]);
        }
        return Answer.of(chain);
    }

    /** How many leading entries two chains share (0 when the host bridges differ). */
    static int sharedPrefix(List<String> a, List<String> b) {
        int n = 0;
        while (n < a.size() - 1 && n < b.size() - 1 && a.get(n).equals(b.get(n))) {
            n++;
        }
        return n;
    }

    /** A PCIe link: generation and lane count, each with the file or call it came from. */
    record Link(Answer<Integer> gen, Answer<Integer> width) {
        boolean known() {
            return gen.known() && width.known();
        }

        String label() {
            return (gen.known() ? "Gen" + gen.value() : "Gen?") + " x" + (width.known() ? width.value() : "?");
        }

        double gbps() {
            return known() ? LinkSpeeds.pcieGBps(gen.value(), width.value()) : Double.NaN;
        }
    }

    /** The link now ({@code current_link_*}) or at most ({@code max_link_*}) of a device, from sysfs. */
    static Link link(MachineSource src, String busId, boolean current) {
        String prefix = DEVICES + busId + "/" + (current ? "current" : "max") + "_link_";
        return new Link(speed(src, prefix + "speed"), width(src, prefix + "width"));
    }

    static Answer<Integer> speed(MachineSource src, String file) {
        String text;
        try {
            text = src.text(file).strip();
        } catch (MachineSource.Unreadable e) {
            return Answer.unknown(e.getMessage());
        }
        Answer<Integer> gen = generation(text);
        return gen.known() ? gen : Answer.unknown("/" + file + ": " + gen.unknown());
    }

    /** The generation of a sysfs link speed such as {@code 32.0 GT/s PCIe}. */
    static Answer<Integer> generation(String text) {
        String[] words = text.split("\\s+");
        if (words.length >= 2 && words[1].equals("GT/s")) {
            try {
                int gen = LinkSpeeds.pcieGeneration(Double.parseDouble(words[0]));
                if (gen > 0) {
                    return Answer.of(gen);
                }
            } catch (NumberFormatException e) {
                // falls through to the message below
            }
        }
        return Answer.unknown("'" + shorten(text) + "' is not a PCIe link speed (expected e.g. '32.0 GT/s PCIe')");
    }

    static Answer<Integer> width(MachineSource src, String file) {
        String text;
        try {
            text = src.text(file).strip();
        } catch (MachineSource.Unreadable e) {
            return Answer.unknown(e.getMessage());
        }
        if (text.matches("\\d{1,2}") && Integer.parseInt(text) >= 1 && Integer.parseInt(text) <= 32) {
            return Answer.of(Integer.parseInt(text));
        }
        return Answer.unknown("/" + file + ": '" + shorten(text) + "' is not a lane count (expected 1 to 32; 0 means the"
                + " link is down)");
    }

    /** The device's NUMA node from sysfs; -1 (the platform does not say) is a value, not unknown. */
    static Answer<Integer> numaNode(MachineSource src, String busId) {
        String file = DEVICES + busId + "/numa_node";
        try {
            String text = src.text(file).strip();
            if (text.matches("-1|\\d{1,4}")) {
                return Answer.of(Integer.parseInt(text));
            }
            return Answer.unknown("/" + file + ": '" + shorten(text) + "' is not a NUMA node");
        } catch (MachineSource.Unreadable e) {
            return Answer.unknown(e.getMessage());
        }
    }

    /**
     * The NVIDIA display and 3D controllers sysfs lists (vendor 0x10de, class 0x0300xx or 0x0302xx),
     * by bus id; NVSwitches and audio functions are not GPUs.
     */
    static Answer<List<String>> nvidiaGpus(MachineSource src) {
        List<String> names;
        try {
            names = src.list("sys/bus/pci/devices");
        } catch (MachineSource.Unreadable e) {
            return Answer.unknown(e.getMessage());
        }
        List<String> gpus = new ArrayList<>();
        for (String name : names) {
            if (!BUS_ID.matcher(name).matches()) {
                continue;
            }
            try {
                int vendor = hex(src.text(DEVICES + name + "/vendor"));
                int cls = hex(src.text(DEVICES + name + "/class"));
                if (vendor == NVIDIA && (cls >> 8 == 0x0300 || cls >> 8 == 0x0302)) {
                    gpus.add(name);
                }
            } catch (MachineSource.Unreadable | NumberFormatException e) {
                // a device whose identity cannot be read is not counted as a GPU
            }
        }
        return Answer.of(gpus);
    }

    /** A sysfs hex value such as {@code 0x10de}. */
    static int hex(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (!t.matches("0x[0-9a-f]{1,8}")) {
            throw new NumberFormatException("'" + shorten(t) + "' is not a hex value");
        }
        return (int) Long.parseLong(t.substring(2), 16);
    }

    /** At most 40 characters of a value seen, for messages. */
    static String shorten(String text) {
        String t = text.replaceAll("\\p{Cntrl}", "?");
        return t.length() <= 40 ? t : t.substring(0, 40) + "...";
    }
}
