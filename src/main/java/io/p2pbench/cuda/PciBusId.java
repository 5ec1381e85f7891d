package io.p2pbench.cuda;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PCI bus ids in one spelling. CUDA writes {@code 0000:18:00.0}, NVML {@code 00000000:18:00.0},
 * sysfs {@code 0000:18:00.0}; the canonical form here is CUDA's, lower case.
 */
public final class PciBusId {
    private static final Pattern FORM = Pattern.compile(
            "(?:([0-9a-fA-F]{1,8}):)?([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})\\.([0-7])");

    private PciBusId() {}

    /** {@code domain:bus:device.function} with a 4-digit domain, lower case; the input if it is not a bus id. */
    public static String normalize(String busId) {
        if (busId == null) {
            return null;
        }
        Matcher m = FORM.matcher(busId.trim());
        if (!m.matches()) {
            return busId.trim();
        }
        long domain = m.group(1) == null ? 0 : Long.parseLong(m.group(1), 16);
        return String.format(Locale.ROOT, "%04x:%02x:%02x.%s", domain,
                Integer.parseInt(m.group(2), 16), Integer.parseInt(m.group(3), 16), m.group(4));
    }

    /** NVML's spelling, with an 8-digit domain. */
    public static String nvmlForm(String busId) {
        String n = normalize(busId);
        return n.matches("[0-9a-f]{4}:.*") ? "0000" + n : n;
    }
}
