package io.p2pbench.collective;

/** What the collective benchmarks drive: a ring all-reduce, an NCCL collective, an activation exchange. */
public interface CollectiveOperation extends AutoCloseable {
    /** Device time of {@code ops} back-to-back operations (gated when they fit), per operation. */
    CollectiveTiming time(int ops);

    /** One operation, enqueued and waited for by the host. */
    void runOnce();

    /** Poisons every output. */
    void poison();

    /** Checks every output element on the GPU (cheap: after every iteration); throws on a wrong one. */
    void verify();

    /** Checks every output element against the CPU reference (once per trial); throws on a wrong one. */
    void verifyOnHost();

    /** Bytes of output checked on the GPU by {@link #verify()} and found right, so far. */
    long bytesVerified();

    @Override
    void close();
}
