package io.p2pbench.doctor;

import io.p2pbench.cuda.PciBusId;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * PCIe Access Control Services of one port: the ACS extended capability (ID 0x000D) in the port's
 * configuration space, read from {@code /sys/bus/pci/devices/PORT/config} or, where that gives only
 * the first 64 bytes (readers other than root), from {@code lspci -vvv} output captured as root.
 * A port redirects peer traffic to the root complex when P2P Request Redirect, P2P Completion
 * Redirect or Egress Control is on (the bits the kernel's p2pdma checks).
 */
final class Acs {
    static final int CAPABILITY_ID = 0x000D;
    static final int REQUEST_REDIRECT = 1 << 2;
    static final int COMPLETION_REDIRECT = 1 << 3;
    static final int EGRESS_CONTROL = 1 << 5;
    private static final String[] BITS = {"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd",
        "EgressCtrl", "DirectTrans"};
    private static final int EXTENDED_START = 0x100;

    private Acs() {}

    /**
     * What is known of one port's ACS.
     *
     * @param redirects true when a redirect bit is on, false when none is (or the port has no ACS), null when unknown
     * @param evidence where it was read and what it said, or why it could not be
     */
    record State(String port, Boolean redirects, String evidence) {}

    /** The ACS capability found in a configuration space: where, and its control register. */
    record Capability(int offset, int control) {}

    /** One device of {@code lspci -vvv} output. */
    record LspciEntry(boolean denied, Integer control) {}

    /** Reads one port's ACS, from its config space or else the lspci capture. */
    static State read(MachineSource src, String port, Map<String, LspciEntry> lspci, boolean lspciGiven) {
        String file = "sys/bus/pci/devices/" + port + "/config";
        String configProblem;
        try {
            byte[] config = src.bytes(file);
            if (config.length > EXTENDED_START) {
                Optional<Capability> cap = find(config);
                if (cap.isEmpty()) {
                    return new State(port, false, "/" + file + ": no ACS capability (0x000D) in the extended "
                            + "capabilities, so the port cannot redirect");
                }
                return state(port, cap.get().control(), String.format(Locale.ROOT, "/%s: ACS capability (0x000D) at "
                        + "0x%03x, control 0x%04x", file, cap.get().offset(), cap.get().control()));
            }
            configProblem = "/" + file + " gives " + config.length + " bytes: the extended capabilities start at 0x100"
                    + (config.length <= 64 ? " and only root may read past byte 64" : "");
        } catch (MachineSource.Unreadable e) {
            configProblem = e.getMessage();
        } catch (IllegalArgumentException e) {
            configProblem = "/" + file + ": " + e.getMessage();
        }
        LspciEntry entry = lspci.get(port);
        if (entry != null && !entry.denied()) {
            if (entry.control() == null) {
                return new State(port, false, "lspci -vvv: " + port + " lists no Access Control Services capability");
            }
            return state(port, entry.control(), "lspci -vvv: " + port + " ACSCtl " + bits(entry.control()));
        }
        String lspciProblem = !lspciGiven ? "no lspci -vvv capture given (doctor --lspci FILE, made with sudo lspci -vvv)"
                : entry == null ? "the lspci -vvv capture does not list " + port
                : "the lspci -vvv capture says <access denied> for " + port + " (it was not run as root)";
        return new State(port, null, "unknown, needs root: " + configProblem + "; " + lspciProblem);
    }

    private static State state(String port, int control, String where) {
        boolean redirects = (control & (REQUEST_REDIRECT | COMPLETION_REDIRECT | EGRESS_CONTROL)) != 0;
        return new State(port, redirects, where + (where.contains("ACSCtl") ? "" : " (" + bits(control) + ")"));
    }

    /**
     * The ACS capability of a configuration space, walking the extended capability list from 0x100;
     * empty when there is none. A list that points outside the space or loops is malformed.
     */
    static Optional<Capability> find(byte[] config) {
        int offset = EXTENDED_START;
        Set<Integer> seen = new HashSet<>();
        while (true) {
            if (offset < EXTENDED_START || offset % 4 != 0 || offset + 4 > config.length) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "the extended capability list points to 0x%x, outside the %d-byte config space", offset,
                        config.length));
            }
            if (!seen.add(offset)) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "the extended capability list loops back to 0x%x", offset));
            }
            long header = le32(config, offset);
            if (header == 0 || header == 0xffffffffL) {
                return Optional.empty();
            }
            if ((header & 0xffff) == CAPABILITY_ID) {
                if (offset + 8 > config.length) {
                    throw new IllegalArgumentException("the ACS capability at the end of the config space is cut short");
                }
                return Optional.of(new Capability(offset, (config[offset + 6] & 0xff) | (config[offset + 7] & 0xff) << 8));
            }
            int next = (int) (header >>> 20) & 0xffc;
            if (next == 0) {
                return Optional.empty();
            }
            offset = next;
        }
    }

    private static long le32(byte[] b, int at) {
        return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
    }

    /** The control bits as lspci writes them: {@code SrcValid+ TransBlk- ReqRedir+ ...}. */
    static String bits(int control) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < BITS.length; i++) {
            sb.append(i == 0 ? "" : " ").append(BITS[i]).append((control & 1 << i) != 0 ? '+' : '-');
        }
        return sb.toString();
    }

    /**
     * The devices of {@code lspci -vvv} output (with or without {@code -D}) by bus id: whether
     * lspci was denied their capabilities, and their ACS control bits (null: no ACS capability).
     */
    static Map<String, LspciEntry> parseLspci(String text) {
        Map<String, LspciEntry> out = new LinkedHashMap<>();
        String device = null;
        boolean denied = false;
        Integer control = null;
        for (String line : text.split("\n")) {
            if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0))) {
                if (device != null) {
                    out.put(device, new LspciEntry(denied, control));
                }
                String first = line.split("\\s+", 2)[0];
                String id = PciBusId.normalize(first);
                device = PciTree.BUS_ID.matcher(id).matches() ? id : null;
                denied = false;
                control = null;
                continue;
            }
            String t = line.strip();
            if (t.startsWith("Capabilities:") && t.contains("<access denied>")) {
                denied = true;
            } else if (t.startsWith("ACSCtl:")) {
                control = parseBits(t.substring("ACSCtl:".length()));
            }
        }
        if (device != null) {
            out.put(device, new LspciEntry(denied, control));
        }
        return out;
    }

    private static int parseBits(String words) {
        int control = 0;
        for (String w : words.strip().split("\\s+")) {
            for (int i = 0; i < BITS.length; i++) {
                if (w.equals(BITS[i] + "+")) {
                    control |= 1 << i;
                }
            }
        }
        return control;
    }
}
