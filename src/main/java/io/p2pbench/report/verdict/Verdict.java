package io.p2pbench.report.verdict;

/**
 * What a verdict decided, one enum for every verdict of the report and of {@code compare}: a comparison of a
 * candidate with a baseline ({@link Comparison}, {@link GatedFigures}) says {@link #WORSE}, {@link #BETTER},
 * {@link #SAME} or {@link #UNJUDGED}; a partition plan against SINGLE ({@link PartitionVerdict},
 * {@link ServingVerdict}) says {@link #KEEP}, {@link #REJECT}, {@link #UNJUDGED}, {@link #NOT_MEASURED} or
 * {@link #NO_VERDICT}. The words the report prints for them are chosen where it is rendered
 * ({@code report.render.VerdictWords}). The order is the comparison's ranking, worst first.
 */
public enum Verdict {
    /** Worse beyond the threshold and the noise floor (and significant where testable). */
    WORSE,
    /** Better beyond the threshold and the noise floor (and significant where testable). */
    BETTER,
    /** Within the threshold, and the noise floor is not wider than the threshold. */
    SAME,
    /**
     * Cannot be judged: within a noise floor wider than the threshold, beyond the threshold and the floor but not
     * significant across the rows, no ratio, a lane of a bidirectional copy (its sum decides), a row of two
     * different machines or of other GPUs of one kind; or a plan run over a group that repeats a GPU.
     */
    UNJUDGED,
    /** The plan pays: better than SINGLE beyond the floor, or SINGLE does not fit one GPU. */
    KEEP,
    /** The plan does not pay: not better than SINGLE beyond the floor. */
    REJECT,
    /** The plan did not run (its skip reason says why). */
    NOT_MEASURED,
    /** There is nothing to judge the plan against: SINGLE was not measured or did not run, or the plan did not finish. */
    NO_VERDICT
}
