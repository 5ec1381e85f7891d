package io.p2pbench.partition;

import io.p2pbench.collective.Group;
import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.PeerAccess;
import io.p2pbench.cuda.Resources;
import io.p2pbench.transfer.StagedCopy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How the step's ranks exchange activations by its {@link Transport}: peer access on or off between
 * the group's GPUs, the PP stage boundaries (one staged copy per boundary when host-staged), and the
 * EP dispatch and combine (one staged copy per ordered pair of ranks when host-staged), whose moves
 * are laid out per number of tokens on a rank.
 *
 * <p>EP layout: rank s's send buffer holds its routed tokens grouped by destination rank, rank d's
 * receive buffer what it receives grouped by source rank; combine moves each region back from the
 * expert outputs (same layout as the receive buffer) into the sender's back buffer (same layout as
 * its send buffer). Regions of tokens that stay on their rank are reserved but not moved. Moves are
 * enqueued one whole move after another in one order on every stream, so the staged copies'
 * cross-stream waits cannot form a cycle.
 */
final class Links implements AutoCloseable {
    /** One pair's share of an EP exchange: {@code bytes} from rank {@code from}'s {@code src} to rank {@code to}'s {@code dst}. */
    record Move(int from, DeviceBuffer src, long srcOffset, int to, DeviceBuffer dst, long dstOffset, long bytes) {}

    /** An EP dispatch and its combine. */
    record Exchange(List<Move> dispatch, List<Move> combine) {}

    private final PartitionSpec spec;
    private final Group group;
    private final Transport transport;
    private final CudaStream[] streams;
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final StagedCopy[] staged;
    private final StagedCopy[][] pairs;
    private final Map<Integer, Exchange> exchanges = new HashMap<>();

    Links(PartitionSpec spec, Group group, Transport transport, CudaStream[] streams, long stagingChunk) {
        this.spec = spec;
        this.group = group;
        this.transport = transport;
        this.streams = streams;
        int n = group.size();
        staged = new StagedCopy[n];
        pairs = new StagedCopy[n][n];
        try {
            int[] devices = group.distinctDevices();
            for (int a : devices) {
                for (int b : devices) {
                    if (a == b) {
                        continue;
                    }
                    if (transport == Transport.P2P) {
                        owned.add(PeerAccess.enable(a, b));
                    } else if (transport == Transport.P2P_OFF) {
                        PeerAccess.ensureDisabled(a, b);
                    }
                }
            }
            if (spec.plan() == Plan.PP && transport == Transport.HOST_STAGED) {
                for (int s = 1; s < n; s++) {
                    staged[s] = own(new StagedCopy(group.device(s - 1), group.device(s), stagingChunk));
                }
            }
            if (spec.plan() == Plan.EP && transport == Transport.HOST_STAGED) {
                for (int from = 0; from < n; from++) {
                    for (int to = 0; to < n; to++) {
                        if (from != to) {
                            pairs[from][to] = own(new StagedCopy(group.device(from), group.device(to), stagingChunk));
                        }
                    }
                }
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private <T extends AutoCloseable> T own(T r) {
        owned.add(r);
        return r;
    }

    /**
     * Enqueues stage {@code s}'s input copy ({@code bytes} of stage {@code s - 1}'s {@code src} into
     * {@code dst}) as the transport says; it ends on stage {@code s}'s stream.
     *
     * @return whether the sender's stream did part of the work (a host-staged copy between two GPUs)
     */
    boolean copyBoundary(int s, DeviceBuffer src, DeviceBuffer dst, long bytes) {
        if (transport == Transport.HOST_STAGED && group.device(s - 1) != group.device(s)) {
            staged[s].enqueue(src, 0, dst, 0, bytes, streams[s - 1], streams[s]);
            return true;
        } else if (transport == Transport.HOST_STAGED) {
            // one GPU: the same round trip through pinned memory, on the receiving stream
            staged[s].enqueue(src, 0, dst, 0, bytes, streams[s], streams[s]);
        } else if (group.device(s - 1) == group.device(s)) {
            Copies.async(dst, 0, src, 0, bytes, streams[s]);
        } else {
            Copies.peerAsync(dst, 0, src, 0, bytes, streams[s]);
        }
        return false;
    }

    /** The EP exchange for {@code tokens} tokens on each rank (laid out once per token count). */
    Exchange exchange(int tokens, RankBuffers[] ranks) {
        return exchanges.computeIfAbsent(tokens, t -> layOut(spec.model().routedTokens(t, group.size(), 1.0 / group.size()),
                ranks));
    }

    private Exchange layOut(long[][] counts, RankBuffers[] ranks) {
        int n = group.size();
        long tokenBytes = (long) spec.model().hidden() * PartitionSpec.BF16;
        long[][] sendAt = new long[n][n];
        long[][] recvAt = new long[n][n];
        for (int s = 0; s < n; s++) {
            long off = 0;
            for (int d = 0; d < n; d++) {
                sendAt[s][d] = off;
                off += counts[s][d] * tokenBytes;
            }
        }
        for (int d = 0; d < n; d++) {
            long off = 0;
            for (int s = 0; s < n; s++) {
                recvAt[s][d] = off;
                off += counts[s][d] * tokenBytes;
            }
        }
        List<Move> dispatch = new ArrayList<>();
        List<Move> combine = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            for (int d = 0; d < n; d++) {
                long bytes = counts[s][d] * tokenBytes;
                if (s == d || bytes == 0) {
                    continue;
                }
                dispatch.add(new Move(s, ranks[s].send, sendAt[s][d], d, ranks[d].expertIn, recvAt[s][d], bytes));
                combine.add(new Move(d, ranks[d].expertOut, recvAt[s][d], s, ranks[s].back, sendAt[s][d], bytes));
            }
        }
        return new Exchange(List.copyOf(dispatch), List.copyOf(combine));
    }

    /**
     * Enqueues one EP move by the step's transport, ending on the receiver's stream. Host-staged, the
     * device-to-host legs run on the sender's stream (the receiver's on one GPU, as a PP boundary there).
     */
    void move(Move m) {
        int from = m.from();
        int to = m.to();
        boolean oneGpu = group.device(from) == group.device(to);
        if (transport == Transport.HOST_STAGED) {
            pairs[from][to].enqueue(m.src(), m.srcOffset(), m.dst(), m.dstOffset(), m.bytes(),
                    oneGpu ? streams[to] : streams[from], streams[to]);
        } else if (oneGpu) {
            Copies.async(m.dst(), m.dstOffset(), m.src(), m.srcOffset(), m.bytes(), streams[to]);
        } else {
            Copies.peerAsync(m.dst(), m.dstOffset(), m.src(), m.srcOffset(), m.bytes(), streams[to]);
        }
    }

    @Override
    public void close() {
        Resources.closeReversed(owned);
    }
}
