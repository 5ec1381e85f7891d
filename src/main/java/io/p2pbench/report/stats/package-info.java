/**
 * Statistics and models over measurements: medians, quantiles with a named estimator and their intervals,
 * exact small-sample tests, the alpha-beta (Hockney) fit, and the theoretical rate of a link. No I/O.
 */
package io.p2pbench.report.stats;
