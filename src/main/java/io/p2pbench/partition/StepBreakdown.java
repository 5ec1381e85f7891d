package io.p2pbench.partition;

/**
 * Where one instrumented step's device time went, on its critical rank (the rank whose own
 * timeline is longest): compute (GEMMs and the forward kernels), exposed communication (from
 * the moment a rank's inputs are all ready until its stream may use the exchanged data) and
 * synchronisation wait (a consumer waiting on its producer, or a rank waiting for the slowest rank
 * before a collective). {@code unaccountedUs} is the step's device time that no interval of that
 * rank covers (start and join skew between ranks); it is small when the three figures account for
 * the step. Microseconds.
 */
public record StepBreakdown(double stepUs, double computeUs, double commUs, double waitUs, double unaccountedUs,
                            int criticalRank) {
}
