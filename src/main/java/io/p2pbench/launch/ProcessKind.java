package io.p2pbench.launch;

import io.p2pbench.spec.Combination;

/**
 * The kinds of manifest entries a job of several processes writes. They are not {@link io.p2pbench.spec.Kind}s:
 * these entries have no JMH file (the ranks time their batches themselves, without JMH, since JMH's forks would
 * leave the launcher's process), and the report reads only kinds it knows, counting the others; a test holds that
 * no label here is also a {@code Kind} label.
 */
public enum ProcessKind {
    /** A copy between two processes of one host through CUDA IPC ({@link io.p2pbench.transfer.IpcCopy}). */
    IPC("ipc", "io.p2pbench.transfer.IpcCopy", "ipc"),
    /** One rank of an NCCL collective whose ranks are processes ({@link io.p2pbench.collective.ProcessCollective}). */
    NCCL_PROCESSES("nccl-processes", "io.p2pbench.collective.ProcessCollective", "ncclmp"),
    /** A test-only stand-in for the copy, on the CPU (the two-process tests of the build machine). */
    TEST_STAND_IN("test-stand-in", "test stand-in (no GPU; never a measurement of a link)", "standin");

    private final String label;
    private final String measuredBy;
    private final String idTag;

    ProcessKind(String label, String measuredBy, String idTag) {
        this.label = label;
        this.measuredBy = measuredBy;
        this.idTag = idTag;
    }

    /** The kind in the manifest. */
    public String label() {
        return label;
    }

    /** Whether {@code c} is an entry of this kind: its manifest kind read in this one place. */
    public boolean of(Combination c) {
        return label.equals(c.kind());
    }

    /** What measured it (the manifest's {@code benchmark}). */
    public String measuredBy() {
        return measuredBy;
    }

    /** The first word of entry ids. */
    String idTag() {
        return idTag;
    }
}
