/**
 * Verdicts: a candidate against a baseline ({@code compare}: worse, same, better) with the noise floors
 * learned on reruns, and the report's decisions whether splitting a model across GPUs pays (partition and
 * serving: keep or reject), each stating its noise model. Also the doctor's diagnosis of a result folder.
 */
package io.p2pbench.report.verdict;
