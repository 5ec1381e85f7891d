package io.p2pbench.launch;

import io.p2pbench.collective.BusBandwidth.Operation;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import io.p2pbench.transfer.Pattern;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * TEST ONLY: a {@link RankWorkload} for machines without a GPU, so that the tests can run a job of two processes
 * end to end (launch, job folder, handle exchange, collection, a rank that dies or hangs). The "handle" is 16
 * pattern words of the step's seed, which the importer checks; the "copy" is a host array copy, timed with
 * nanoTime and checked against the pattern. Its entries are of kind {@code test-stand-in}; nothing it prints or
 * writes is a measurement of a GPU link. Selected with {@code -Dp2pbench.test.rankWorkload=} this class.
 *
 * <p>Test knobs (system properties of one rank's JVM): {@value #TOPOLOGY} a topology JSON (default: the
 * committed two-GPU fixture); {@value #DIE_AT} a step id where this rank halts its JVM as it starts importing;
 * {@value #HANG_AT} a step id where it blocks forever.
 */
public final class CpuStandInWorkload implements RankWorkload {
    /** A topology JSON file the stand-in reports as its node. */
    public static final String TOPOLOGY = "p2pbench.test.standin.topology";
    /** A step id at which this rank's JVM halts (exit 137), as a rank killed by the OOM killer would. */
    public static final String DIE_AT = "p2pbench.test.standin.dieAt";
    /** A step id at which this rank blocks forever, as a hung CUDA call would. */
    public static final String HANG_AT = "p2pbench.test.standin.hangAt";

    @Override
    public String label() {
        return "CPU stand-in (test only)";
    }

    @Override
    public boolean testOnly() {
        return true;
    }

    @Override
    public Topology topology() {
        try {
            String file = System.getProperty(TOPOLOGY);
            Path p = file != null ? Path.of(file) : Path.of(CpuStandInWorkload.class
                    .getResource("/topologies/rtx-6000-ada-generationx2-phb-r580.json").toURI());
            return TopologyJson.read(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String ncclUnavailable() {
        return "the CPU test stand-in runs no NCCL";
    }

    static byte[] handleFor(int seed) {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        Pattern.fill(b, seed);
        return b.array();
    }

    @Override
    public byte[] export(String step, int device, long bytes, int seed) {
        return handleFor(seed);
    }

    @Override
    public void unexport(String step) {
        // nothing kept
    }

    @Override
    public Measured copyFrom(String step, String label, int device, byte[] handle, long bytes, int seed, int warmup,
                             int batches) {
        if (!Arrays.equals(handle, handleFor(seed))) {
            throw new IllegalStateException("the handle received for " + label + " is not the exporter's");
        }
        knobs(step);
        ByteBuffer src = ByteBuffer.allocate((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
        Pattern.fill(src, seed);
        byte[] dst = new byte[(int) bytes];
        int copies = 16;
        List<BatchSamples.Batch> out = new ArrayList<>();
        long verified = 0;
        for (int b = 0; b < warmup + batches; b++) {
            Arrays.fill(dst, (byte) Pattern.POISON_BYTE);
            long t0 = System.nanoTime();
            for (int i = 0; i < copies; i++) {
                System.arraycopy(src.array(), 0, dst, 0, dst.length);
            }
            long nanos = Math.max(1, System.nanoTime() - t0);
            if (Pattern.firstMismatch(ByteBuffer.wrap(dst).order(ByteOrder.LITTLE_ENDIAN), seed) >= 0) {
                throw new IllegalStateException("the stand-in copy of " + step + " delivered wrong bytes");
            }
            verified += bytes;
            if (b >= warmup) {
                out.add(new BatchSamples.Batch(false, List.of(bytes * (double) copies / nanos)));
            }
        }
        double[] v = out.stream().mapToDouble(x -> x.laneGBps().get(0)).sorted().toArray();
        return new Measured(List.of(label), bytes, copies, out, verified, String.format(Locale.ROOT,
                "%.2f GB/s (host array copy, TEST STAND-IN, not a GPU figure)", v[v.length / 2]));
    }

    /** The die and hang knobs, at the start of importing {@code step}. */
    private static void knobs(String step) {
        if (step.equals(System.getProperty(DIE_AT))) {
            Runtime.getRuntime().halt(137);
        }
        if (step.equals(System.getProperty(HANG_AT))) {
            try {
                new CountDownLatch(1).await(); // never counted down: a call that never returns
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void joinWorld(int device, int worldSize, int rank) {
        throw new UnsupportedOperationException(ncclUnavailable());
    }

    @Override
    public void joinHost(int color, int key) {
        throw new UnsupportedOperationException(ncclUnavailable());
    }

    @Override
    public Measured collective(JobPlan.Scope scope, Operation op, DataType type, long sizeBytes, int warmup,
                               int batches) {
        throw new UnsupportedOperationException(ncclUnavailable());
    }

    @Override
    public void close() {
        // nothing held
    }
}
