package io.p2pbench.bench;

import io.p2pbench.cuda.Binding;
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
 * GPU-to-GPU copies in one direction: {@code sizeBytes} from GPU {@code pair}'s source to its
 * destination along {@code path} (copy engine with P2P on, read or write; P2P off; host-staged;
 * SM loads or stores).
 *
 * <p>{@link #bandwidth} is device-timed (gate + CUDA events; secondary metric {@code deviceGBps},
 * decimal GB/s); its primary score, host time per batch, is not a transfer figure. {@link #latency}
 * is host-observed time per transfer: enqueue and wait, as an application sees a blocking copy
 * (SampleTime percentiles). Excluded from both: allocation, peer-access setup, pattern fill, and
 * verification, which runs outside the timed region (per batch, and per iteration for latency).
 * Pair {@code 0-0} is a device-local copy: no interconnect is measured.
 *
 * <p>Run: {@code p2pbench run --paths CE_P2P_READ --pairs 0-1 --sizes 1M}, or plain JMH:
 * {@code java -cp 'target/classes:target/lib/*' org.openjdk.jmh.Main PeerCopyBenchmark -p pair=0-1}.
 */
public class PeerCopyBenchmark extends TransferState {
    /**
     * Bytes per chunk of a host-staged copy ({@code --staging-chunk}; the run passes it to every benchmark as
     * {@link ForkChannel#STAGING_CHUNK_PARAM}, so JMH's JSON records it). Only host-staged paths use it.
     */
    @Param({"" + TransferFixture.DEFAULT_STAGING_CHUNK})
    public long stagingChunk;

    /** Source and destination GPU, {@code SRC-DST}. */
    @Param({"0-0"})
    public String pair;

    /** How the bytes move (every path unless listed). */
    @Param
    public CopyPath path;

    /** Bytes per transfer. */
    @Param({"4", "4096", "65536", "1048576", "16777216", "268435456"})
    public long sizeBytes;

    /**
     * Which Java binding enqueues the copy and waits for it: JavaCPP's runtime API unless asked
     * (the planner adds JCUDA_DRIVER rows for small latency sizes; see docs/hardening.md).
     */
    @Param({"JAVACPP_RUNTIME"})
    public Binding binding;

    @Override
    protected TransferFixture open() {
        return TransferFixture.peer(path, GpuPair.parse(pair), sizeBytes, false,
                stagingChunk, binding);
    }

    /** One gated batch of transfers, timed on the device; see {@link DeviceBandwidth}. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void bandwidth(DeviceBandwidth counters) {
        counters.add(batch());
    }

    /** One transfer, enqueued and waited for by the host. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void latency() {
        transferOnce();
    }
}
