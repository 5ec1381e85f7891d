package io.p2pbench.transfer;

/**
 * Why a combination did not run here, as a type: what a verdict decides on, where the reason beside it is for people
 * and may be reworded freely. The planner gives the cause of a planned skip, the fork the cause of one it found.
 */
public enum SkipCause {
    /** The model, its KV cache or the transfer buffers do not fit the GPUs' (or the host's) memory. */
    DOES_NOT_FIT,
    /** The plan or operation does not divide the model, the group or the size (a shape the workload refuses). */
    DOES_NOT_DIVIDE,
    /** Two GPUs the combination needs have no peer access to each other. */
    NO_PEER_ACCESS,
    /** The host memory cannot be placed on the NUMA node it asks for (one node, unknown node, fork not bound). */
    NUMA,
    /** {@code numactl} is missing, so the fork cannot be bound to a NUMA node. */
    NO_NUMACTL,
    /** The combination has no meaning here (the same GPU as source and destination, no variant for the binding). */
    NOT_APPLICABLE,
    /** Any other cause, and the cause of a skip recorded before causes were. */
    OTHER
}
