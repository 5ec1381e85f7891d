package io.p2pbench.report.read;

import io.p2pbench.collective.ActivationExchange;
import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.spec.Kind;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.HostMemory;
import java.util.List;

/**
 * What a key's {@code path} text says, typed, as far as the report decides on it: the host memory of a
 * host-device copy, the operation and data type of a collective, and whether the data went through host
 * memory (a peer copy or a collective over {@code HOST_STAGED}). Set where the figure is read.
 *
 * @param memory the host memory of a host-device copy; null for other rows
 * @param operation the collective's operation; null for copies and for exchanges (no bus-bandwidth operation)
 * @param dtype the collective's data type as the path writes it ({@code float32}); empty for copies
 * @param hostStaged whether the data was staged through host memory by the benchmark
 * @param copyPath the copy path of a peer copy; null for other rows
 * @param exchange the pattern of an activation exchange; null for other rows
 */
public record Route(HostMemory memory, BusBandwidth.Operation operation, String dtype, boolean hostStaged,
                    CopyPath copyPath, ActivationExchange.Pattern exchange) {
    /** An exchange of unknown pattern over P2P (a key built from text that names none). */
    public static final Route PLAIN = new Route(null, null, "", false, null, null);
    /** An exchange of unknown pattern staged through host memory. */
    public static final Route HOST_STAGED = new Route(null, null, "", true, null, null);

    /** A peer copy over {@code path}. */
    public static Route copy(CopyPath path) {
        return new Route(null, null, "", path == CopyPath.HOST_STAGED, path, null);
    }

    /** An activation exchange of {@code pattern}, staged through host memory or not. */
    public static Route exchange(ActivationExchange.Pattern pattern, boolean hostStaged) {
        return new Route(null, null, "", hostStaged, null, pattern);
    }

    /**
     * Whether the exchange's steps are all-reduces ({@link ActivationExchange.Pattern#TENSOR}: timed by their ring),
     * so that it moves like the ring all-reduce, not like the point-to-point exchanges.
     */
    public boolean allReduceExchange() {
        return exchange == ActivationExchange.Pattern.TENSOR;
    }

    /** Whether this is a peer copy with peer access on (a CE or SM path over P2P). */
    public boolean peerAccess() {
        return copyPath != null && copyPath.needsPeerAccess();
    }

    /** A host-device copy from {@code memory}. */
    public static Route host(HostMemory memory) {
        return new Route(memory, null, "", false, null, null);
    }

    /** A collective operation on {@code dtype}, staged through host memory or not. */
    public static Route collective(BusBandwidth.Operation operation, String dtype, boolean hostStaged) {
        return new Route(null, operation, dtype, hostStaged, null, null);
    }

    /**
     * The route a key written as text names (for keys built from their text: tests, hand-made keys); the
     * readers set it from the spec instead.
     */
    static Route parse(String kind, String path) {
        String[] words = path.split(" ");
        if (kind.equals(Kind.HOST.label())) {
            return host(HostMemory.valueOf(words[0]));
        }
        if (kind.equals(Kind.PEER.label())) {
            for (CopyPath p : CopyPath.values()) {
                if (p.name().equals(words[0])) {
                    return copy(p);
                }
            }
        }
        boolean staged = List.of(words).contains("HOST_STAGED");
        if (kind.equals(Kind.EXCHANGE.label())) {
            for (ActivationExchange.Pattern pattern : ActivationExchange.Pattern.values()) {
                if (pattern.name().equals(words[0])) {
                    return exchange(pattern, staged);
                }
            }
        }
        for (BusBandwidth.Operation op : BusBandwidth.Operation.values()) {
            if (op.name().equals(words[0])) {
                return collective(op, words.length > 1 ? words[1] : "", staged);
            }
        }
        return staged ? HOST_STAGED : PLAIN;
    }
}
