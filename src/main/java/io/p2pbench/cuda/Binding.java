package io.p2pbench.cuda;

/**
 * Which Java binding enqueues a copy and waits for it. The buffers, streams, gate, events and
 * checks are the same in both; only the copy call and the wait differ, so the difference between
 * the two rows of one copy is what the binding costs.
 */
public enum Binding {
    /** JavaCPP's CUDA runtime API: cudaMemcpyAsync / cudaMemcpyPeerAsync, cudaStreamSynchronize. */
    JAVACPP_RUNTIME,
    /**
     * JCuda's driver API: cuMemcpyDtoDAsync, cuMemcpyHtoDAsync, cuMemcpyDtoHAsync or
     * cuMemcpyPeerAsync, and cuStreamSynchronize.
     */
    JCUDA_DRIVER;

    /** How reports name it beside a copy, e.g. {@code JCuda driver API}. */
    public String label() {
        return this == JAVACPP_RUNTIME ? "JavaCPP runtime API" : "JCuda driver API";
    }
}
