package io.p2pbench.results;

import io.p2pbench.transfer.SkipCause;
import java.util.List;

/**
 * The cause of a skip recorded before manifests held one ({@link RunManifest.Entry#skipCause()} absent), read from
 * the reason's words. This is the only place that reads a skip reason for its meaning, and only the manifest's
 * reading side calls it ({@link RunManifest.Entry#cause()}): every skip written since carries its cause, so
 * rewording a reason changes no decision. The manifest read is left as written (its JSON, which
 * {@code CommittedResultsTest} digests, unchanged); the cause is given when asked for.
 */
final class LegacySkipCauses {
    private LegacySkipCauses() {}

    /** The openings of the reasons this suite wrote before causes were recorded, with the cause each meant. */
    private record Opening(String text, SkipCause cause) {}

    private static final List<Opening> OPENINGS = List.of(
            new Opening("does not fit", SkipCause.DOES_NOT_FIT),
            new Opening("too little memory", SkipCause.DOES_NOT_FIT),
            new Opening("the KV cache left beside the weights", SkipCause.DOES_NOT_FIT),
            new Opening("no peer access", SkipCause.NO_PEER_ACCESS),
            new Opening("peer access refused", SkipCause.NO_PEER_ACCESS),
            new Opening("host memory placement needs numactl", SkipCause.NO_NUMACTL),
            new Opening("this host has one NUMA node", SkipCause.NUMA),
            new Opening("the platform does not say which NUMA node", SkipCause.NUMA),
            new Opening("host memory LOCAL", SkipCause.NUMA),
            new Opening("host memory REMOTE", SkipCause.NUMA),
            new Opening("source and destination are the same GPU", SkipCause.NOT_APPLICABLE),
            new Opening("plan ", SkipCause.DOES_NOT_DIVIDE));

    /** The cause {@code reason} meant when it was written (a multi-round entry's "round K of N: " put aside). */
    static SkipCause of(String reason) {
        if (reason == null) {
            return SkipCause.OTHER;
        }
        String r = reason.replaceFirst("^round \\d+ of \\d+: ", "");
        for (Opening o : OPENINGS) {
            if (r.startsWith(o.text())) {
                return o.cause();
            }
        }
        return SkipCause.OTHER;
    }
}
