package io.p2pbench.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks CUDA_VISIBLE_DEVICES before and after CUDA counts the devices.
 *
 * <p>CUDA reads the variable silently: an empty value hides every GPU, and a list stops at the
 * first entry that names no GPU (so {@code 0,7} on a one-GPU machine gives one device and no
 * error). These checks make both cases one clear line instead.
 */
public final class VisibleDevices {
    private VisibleDevices() {}

    /** Problems visible from the text alone: set but empty, or entries that are not indices or UUIDs. */
    public static Optional<String> checkSyntax(String env) {
        if (env == null) {
            return Optional.empty();
        }
        if (env.isBlank()) {
            return Optional.of("CUDA_VISIBLE_DEVICES is set but empty, so no GPU is visible; "
                    + "unset it or name GPUs, e.g. CUDA_VISIBLE_DEVICES=0,1");
        }
        for (String entry : entries(env)) {
            if (!entry.matches("\\d+") && !entry.matches("(?i)(GPU|MIG)-[0-9a-f-]+")) {
                return Optional.of("CUDA_VISIBLE_DEVICES=" + env + " has the entry '" + entry
                        + "', which is neither a GPU index nor a GPU-/MIG- UUID");
            }
        }
        return Optional.empty();
    }

    /**
     * Problems visible once CUDA has counted: an index entry that CUDA did not turn into a device.
     * CUDA keeps entries up to the first invalid one, so the first entry at position
     * {@code visibleCount} or later is the culprit.
     */
    public static Optional<String> checkAgainstCount(String env, int visibleCount) {
        if (env == null || env.isBlank()) {
            return Optional.empty();
        }
        List<String> entries = entries(env);
        if (entries.size() > visibleCount) {
            String bad = entries.get(visibleCount);
            if (entries.subList(0, visibleCount).contains(bad)) {
                return Optional.of("CUDA_VISIBLE_DEVICES=" + env + " names GPU '" + bad
                        + "' twice; name each GPU once");
            }
            return Optional.of("CUDA_VISIBLE_DEVICES=" + env + " names GPU '" + bad
                    + "', which does not exist on this machine (CUDA sees " + visibleCount
                    + (visibleCount == 1 ? " GPU" : " GPUs") + " from that list); name only existing GPUs");
        }
        return Optional.empty();
    }

    static List<String> entries(String env) {
        List<String> out = new ArrayList<>();
        for (String part : env.split(",")) {
            String trimmed = part.trim();
            if (!trimmed.isEmpty()) {
                out.add(trimmed);
            }
        }
        return out;
    }
}
