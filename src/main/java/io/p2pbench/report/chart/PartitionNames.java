package io.p2pbench.report.chart;

/**
 * What the partition and serving charts share with their verdicts ({@code verdict.PartitionVerdict}): the
 * file-name prefix of a machine's charts, the series name of SINGLE and the single-GPU caveat. They live
 * here, below the verdicts, so that the charts do not import the verdicts.
 */
public final class PartitionNames {
    /** The caveat of a multi-rank plan whose group repeats a GPU. */
    public static final String SINGLE_GPU = "single GPU: not an interconnect measurement";
    /** The series name of SINGLE, which has no exchanges and so no transport. */
    public static final String NO_EXCHANGES = "SINGLE: no exchanges";

    private PartitionNames() {}

    /** What the file names of {@code machine}'s charts start with, as {@code Reporter} names the other charts. */
    public static String prefix(String machine, int machines) {
        return machines > 1 ? Charts.stem(machine) + "-" : "";
    }
}
