package io.p2pbench.transfer;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.Kernel;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.PageableHostBuffer;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.SuiteKernels;
import io.p2pbench.settings.Settings;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Poisons a destination before a transfer and checks it after: every 32-bit word must equal the
 * {@link Pattern} word for its position. Device memory and pinned host memory are checked by a
 * kernel on the lane's GPU (pinned memory is read in place through its mapping); pageable memory
 * is compared with a reference copy of the pattern on the host (memcmp).
 *
 * <p>Test hook: with {@code -Dp2pbench.test.corrupt=true} every check first overwrites one word of
 * the destination, so the check must fail; a test and an end-to-end run use it to prove that a
 * bad copy fails the benchmark.
 */
public final class Verifier implements AutoCloseable {
    /** System property of the corruption test hook. */
    static final String CORRUPT_PROPERTY = Settings.CORRUPT;
    private static final int CORRUPT_WORD = 0x0BADF00D;

    private final String label;
    private final Memory dst;
    private final long offset;
    private final long bytes;
    private final int seed;
    private final int device;
    private final boolean corrupt = Settings.current().corruptAll();
    private DeviceBuffer counters;
    private PinnedHostBuffer result;
    private PageableHostBuffer reference;
    private Kernel.Launch resetCount;
    private Kernel.Launch resetFirst;
    private Kernel.Launch check;
    private Kernel.Launch corruptLaunch;
    private long bytesChecked;

    /**
     * Checks {@code bytes} of {@code dst} from its start.
     *
     * @param device the GPU whose kernels check device-accessible memory (the destination's GPU,
     *     or the lane's GPU for host memory)
     */
    public Verifier(String label, Memory dst, long bytes, int seed, int device) {
        this(label, dst, 0, bytes, seed, device);
    }

    /** Checks the region {@code [offset, offset + bytes)} of {@code dst}; pattern word 0 is at {@code offset}. */
    public Verifier(String label, Memory dst, long offset, long bytes, int seed, int device) {
        if (bytes % 4 != 0 || offset % 4 != 0 || bytes <= 0 || offset + bytes > dst.bytes()) {
            throw new IllegalArgumentException("cannot verify " + bytes + " bytes at " + offset + " of a " + dst.bytes()
                    + "-byte buffer");
        }
        if (offset != 0 && dst.kind() != Memory.Kind.DEVICE) {
            throw new IllegalArgumentException("regions are supported in device memory only");
        }
        this.label = label;
        this.dst = dst;
        this.offset = offset;
        this.bytes = bytes;
        this.seed = seed;
        this.device = device;
        try {
            if (dst.deviceAccessible()) {
                counters = new DeviceBuffer(device, 16);
                result = new PinnedHostBuffer(32);
                long words = bytes / 4;
                int grid = SuiteKernels.gridFor(device, words, SuiteKernels.BLOCK);
                resetCount = SuiteKernels.kernel(device, "fillWord").prepare(1, 32, counters, 2L, 0);
                resetFirst = SuiteKernels.kernel(device, "fillWord")
                        .prepare(1, 32, counters.address() + 8, 2L, -1);
                check = SuiteKernels.kernel(device, "verifyPattern")
                        .prepare(grid, SuiteKernels.BLOCK, dst.address() + offset, words, seed, counters);
                corruptLaunch = SuiteKernels.kernel(device, "fillWord")
                        .prepare(1, 32, dst.address() + offset + corruptOffset(), 1L, CORRUPT_WORD);
            } else {
                reference = new PageableHostBuffer(bytes);
                ByteBuffer view = reference.hostView();
                view.limit((int) bytes);
                Pattern.fill(view, seed);
            }
        } catch (RuntimeException e) {
            throw Resources.closeAfterFailure(e, this);
        }
    }

    private long corruptOffset() {
        return (bytes / 4 / 2) * 4; // a word in the middle
    }

    /** Fills {@code bytes} of {@code m} at {@code offset} with the pattern for {@code seed}, enqueued on {@code stream}. */
    public static void fill(Memory m, long offset, long bytes, int seed, CudaStream stream) {
        long words = bytes / 4;
        SuiteKernels.kernel(stream.device(), "fillPattern").launch(stream,
                SuiteKernels.gridFor(stream.device(), words, SuiteKernels.BLOCK), SuiteKernels.BLOCK,
                m.address() + offset, words, seed);
    }

    /** Fills the destination with poison: enqueued on {@code stream} for device memory, at once for host memory. */
    public void poison(CudaStream stream) {
        if (dst.kind() == Memory.Kind.DEVICE) {
            Copies.memsetAsync(dst, offset, Pattern.POISON_BYTE, bytes, stream);
        } else {
            Copies.hostFill(dst, Pattern.POISON_BYTE, bytes); // offset is 0: regions are device-accessible only
        }
    }

    /** Enqueues the check (device-accessible memory) on {@code stream}, after everything before it. */
    public void enqueueCheck(CudaStream stream) {
        if (check == null) {
            return;
        }
        if (corrupt) {
            corruptLaunch.enqueue(stream);
        }
        resetCount.enqueue(stream);
        resetFirst.enqueue(stream);
        check.enqueue(stream);
        Copies.async(result, 0, counters, 0, 16, stream);
        // No host-to-host cudaMemcpyAsync here: the runtime performs those synchronously, and behind a
        // held stream that would block the enqueueing thread until the gate's watchdog fired.
    }

    /**
     * Reads the outcome once the check's stream has been synchronised; throws {@link
     * DataMismatchException} naming where and what if any word is wrong.
     */
    public void requireIntact(CudaStream stream) {
        long mismatches;
        long first;
        if (check != null) {
            ByteBuffer r = result.hostView();
            mismatches = r.getLong(0);
            first = r.getLong(8);
            if (mismatches != 0) {
                int found;
                if (dst.kind() == Memory.Kind.DEVICE) {
                    Copies.async(result, 16, dst, offset + first * 4, 4, stream);
                    stream.synchronize();
                    found = result.hostView().getInt(16);
                } else {
                    found = dst.hostView().getInt((int) (offset + first * 4));
                }
                fail(mismatches, first, found);
            }
        } else {
            if (corrupt) {
                dst.hostView().putInt((int) corruptOffset(), CORRUPT_WORD);
            }
            if (!Copies.hostEquals(dst, reference, bytes)) {
                ByteBuffer view = dst.hostView();
                view.limit((int) bytes);
                first = Pattern.firstMismatch(view, seed);
                mismatches = countMismatches(view);
                fail(mismatches, first, view.getInt((int) (first * 4)));
            }
        }
        bytesChecked += bytes;
    }

    private long countMismatches(ByteBuffer view) {
        long bad = 0;
        for (int i = 0; i < bytes / 4; i++) {
            if (view.getInt(i * 4) != Pattern.word(seed, i)) {
                bad++;
            }
        }
        return bad;
    }

    private void fail(long mismatches, long firstWord, int found) {
        int expected = Pattern.word(seed, firstWord);
        throw new DataMismatchException(String.format(Locale.ROOT,
                "data check failed for %s: %d of %d words differ from the pattern; first at byte %d "
                        + "(expected 0x%08x, found 0x%08x%s)", label, mismatches, bytes / 4, firstWord * 4,
                expected, found, found == Pattern.POISON_WORD ? ", the poison: never written" : ""));
    }

    /** Total bytes checked and found intact so far. */
    public long bytesChecked() {
        return bytesChecked;
    }

    @Override
    public void close() {
        // Launches before the buffers they point into; every one closed even where an earlier close fails.
        List<AutoCloseable> all = new ArrayList<>();
        for (AutoCloseable c : new AutoCloseable[] {resetCount, resetFirst, check, corruptLaunch, counters, result,
            reference}) {
            if (c != null) {
                all.add(c);
            }
        }
        Resources.closeEach(all);
    }
}
