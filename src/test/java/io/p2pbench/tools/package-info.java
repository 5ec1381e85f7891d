/**
 * Research tools, kept in test scope so they never ship in the product jar: {@link io.p2pbench.tools.ScaleResults}
 * injects a known change into a copy of a result folder, {@link io.p2pbench.tools.CompareErrorRates} measures
 * {@code compare}'s error rates on A/A reruns with it, {@link io.p2pbench.tools.ServingErrorRates} the serving
 * verdict's. Run by {@code tools/scale-results.sh}, {@code tools/compare-error-rates.sh} and
 * {@code tools/serving-error-rates.sh}, from {@code target/test-classes}.
 */
package io.p2pbench.tools;
