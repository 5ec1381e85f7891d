package io.p2pbench.serving;

import io.p2pbench.partition.StepBreakdown;

/**
 * A {@link StepExecutor} that runs its steps on the GPUs and can show its work, as a serving
 * benchmark needs beside the scheduler's contract: its results checked (the suite keeps no figure
 * without verified data) and one step instrumented (how much of a step is exposed communication).
 * The scheduler never sees this; only the benchmark that opens the executor does.
 */
public interface VerifiedStepExecutor extends StepExecutor {
    /**
     * Checks, outside any timed step, what the steps that ran computed and moved (GEMMs against a host
     * reference, copies word by word, all-reduces element by element).
     *
     * @return bytes checked and found right by this call (more than 0)
     */
    long verify();

    /** One instrumented step of {@code shape}: compute, exposed communication and wait on its critical rank. */
    StepBreakdown breakdown(StepShape shape);

    /** What it runs, in words (recorded with the results). */
    String description();
}
