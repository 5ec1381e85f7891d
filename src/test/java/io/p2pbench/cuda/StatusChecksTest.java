package io.p2pbench.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every status a CUDA, NVRTC, NVML or NCCL call returns is looked at; closing never stops early. */
class StatusChecksTest {
    /** A statement that is nothing but a status-returning native call: its status is thrown away. */
    private static final Pattern DISCARDED_STATUS = Pattern.compile(
            "^\\s*(?:JCudaDriver\\.|JCuda\\.)?(?:cuda|cu|nvrtc|nvml|nccl)[A-Z]\\w*\\(.*");

    /** cudaGetLastError() is called only to clear the sticky error after a failure was reported. */
    private static final Pattern ALLOWED = Pattern.compile("^\\s*cudaGetLastError\\(\\);.*");

    @Test
    void noStatusIsIgnoredInTheCudaLayerOrTheBenchmarks() throws IOException {
        List<String> ignored = new ArrayList<>();
        for (Path root : List.of(Path.of("src/main/java"), Path.of("src/jmh/java"))) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    List<String> lines = Files.readAllLines(f);
                    for (int i = 0; i < lines.size(); i++) {
                        String l = lines.get(i);
                        if (DISCARDED_STATUS.matcher(l).matches() && !ALLOWED.matcher(l).matches()) {
                            ignored.add(f + ":" + (i + 1) + ": " + l.strip());
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), ignored, "calls whose status is thrown away");
    }

    @Test
    void closeReversedClosesEveryOneAndKeepsLaterFailuresAsSuppressed() {
        List<String> closed = new ArrayList<>();
        IllegalStateException last = new IllegalStateException("third fails");
        IllegalStateException first = new IllegalStateException("first fails");
        List<AutoCloseable> owned = new ArrayList<>(List.of(
                () -> {
                    closed.add("a");
                    throw first;
                },
                () -> closed.add("b"),
                () -> {
                    closed.add("c");
                    throw last;
                }));
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> Resources.closeReversed(owned));
        assertEquals(List.of("c", "b", "a"), closed, "last made, first closed; none skipped");
        assertSame(last, thrown, "the first failure in closing order is thrown");
        assertEquals(1, thrown.getSuppressed().length, "the later failure is kept");
        assertSame(first, thrown.getSuppressed()[0]);
        assertTrue(owned.isEmpty());
    }

    @Test
    void aFailedConstructionClosesWhatItMadeLastFirstAndRethrowsItsOwnCause() {
        List<String> closed = new ArrayList<>();
        IllegalStateException closing = new IllegalStateException("stream destroy fails");
        List<AutoCloseable> made = new ArrayList<>(List.of(
                () -> closed.add("stream"),
                () -> {
                    closed.add("event");
                    throw closing;
                },
                () -> closed.add("buffer")));
        CudaException step = new CudaException("cudaEventCreate", "device=0", 2, "cudaErrorMemoryAllocation",
                "out of memory");
        RuntimeException thrown = Resources.closeAfterFailure(step, made);
        assertSame(step, thrown, "the step that failed is what the user sees, not the clean-up");
        assertEquals(List.of("buffer", "event", "stream"), closed, "last made, first closed; none skipped");
        assertEquals(1, thrown.getSuppressed().length);
        assertSame(closing, thrown.getSuppressed()[0]);
        assertTrue(made.isEmpty());

        List<String> one = new ArrayList<>();
        IllegalArgumentException bad = new IllegalArgumentException("bad size");
        assertSame(bad, Resources.closeAfterFailure(bad, () -> one.add("lane")));
        assertEquals(List.of("lane"), one);
        assertEquals(0, bad.getSuppressed().length);
    }

    @Test
    void stickyErrorsAreKnownByTheirCodeAndTheFirstIsKeptForTheJvm() {
        CudaException peer = new CudaException("cudaMemcpyPeerAsync", "dst=1", 217, "cudaErrorPeerAccessUnsupported", "");
        assertFalse(peer.sticky(), "a failed call that leaves the context usable");
        assertFalse(new CudaException("ncclAllReduce", "rank=0", 1, "ncclResult1", "").sticky());
        for (int code : new int[] {700, 719, 214, 716}) {
            assertTrue(new CudaException("cuStreamSynchronize", "device=0", code, "CUDA_ERROR", "").sticky(), "" + code);
        }
        CudaException first = CudaException.firstStickyInThisJvm().orElseThrow();
        assertTrue(first.sticky());
        new CudaException("cudaLaunchKernel", "device=0", 719, "cudaErrorLaunchFailure", "");
        assertSame(first, CudaException.firstStickyInThisJvm().orElseThrow(), "the first one is kept");
    }

    @Test
    void closeEachGoesOnAfterAFailureAndWrapsCheckedOnes() {
        List<Integer> closed = new ArrayList<>();
        List<AutoCloseable> ranks = List.of(
                () -> {
                    closed.add(0);
                    throw new IOException("rank 0");
                },
                () -> {
                    closed.add(1);
                    throw new IllegalStateException("rank 1");
                },
                () -> closed.add(2));
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> Resources.closeEach(ranks));
        assertEquals(List.of(0, 1, 2), closed, "a failing destroy does not leak the later ones (Nccl.close)");
        assertEquals("rank 0", thrown.getCause().getMessage());
        assertEquals("rank 1", thrown.getSuppressed()[0].getMessage());
    }

    @Test
    void failedMallocOfPageableMemoryIsAnAllocationFailureNotCudaMissing() {
        CudaException e = assertThrows(CudaException.class, () -> new PageableHostBuffer(1L << 62));
        assertEquals("cudaErrorMemoryAllocation", e.errorName(), e.getMessage());
        assertTrue(e.getMessage().startsWith("malloc(bytes=4611686018427387904) failed"), e.getMessage());
        assertTrue(!e.getMessage().contains("CUDA"), e.getMessage());
    }
}
