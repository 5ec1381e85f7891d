/**
 * Verdicts: a candidate against a baseline ({@code compare}: worse, same, better) with the noise floors
 * learned on reruns, and the report's decisions whether splitting a model across GPUs pays (partition and
 * serving: keep or reject), each stating its noise model. Also the doctor's diagnosis of a result folder.
 * Each verdict is a record (what was decided, as one {@link io.p2pbench.report.verdict.Verdict}, on which
 * figures, and why); {@code report.render} turns the records into Markdown, and nothing here writes any.
 */
package io.p2pbench.report.verdict;
