package io.p2pbench.bench;

import io.p2pbench.fork.ForkChannel;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.TransferFixture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;

/**
 * GPU-to-GPU copies in both directions at once, each on its own streams: {@code pair}'s source to
 * destination and back, along {@code path}. Device-timed like {@link PeerCopyBenchmark#bandwidth};
 * reported per direction ({@code forwardGBps}, {@code reverseGBps}) and as their sum ({@code sumGBps}),
 * see {@link BidirectionalBandwidth}.
 *
 * <p>Run: {@code p2pbench run --paths CE_P2P_READ --pairs 0-1 --sizes 256M} (bidirectional rows).
 */
public class PeerCopyBidirectionalBenchmark extends TransferState {
    /**
     * Bytes per chunk of a host-staged copy ({@code --staging-chunk}; the run passes it to every benchmark as
     * {@link ForkChannel#STAGING_CHUNK_PARAM}, so JMH's JSON records it). Only host-staged paths use it.
     */
    @Param({"" + TransferFixture.DEFAULT_STAGING_CHUNK})
    public long stagingChunk;

    /** The two GPUs, {@code SRC-DST}; forward is SRC to DST. */
    @Param({"0-0"})
    public String pair;

    /** How the bytes move (every path unless listed). */
    @Param
    public CopyPath path;

    /** Bytes per transfer, in each direction. */
    @Param({"4096", "1048576", "268435456"})
    public long sizeBytes;

    @Override
    protected TransferFixture open() {
        return TransferFixture.peer(path, GpuPair.parse(pair), sizeBytes, true,
                stagingChunk);
    }

    /** One gated batch in both directions at once, timed on the device per direction. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void bandwidth(BidirectionalBandwidth counters) {
        counters.add(batch());
    }
}
