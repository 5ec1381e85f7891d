/**
 * Rendering: the report's documents ({@code summary.md}, {@code statistics.md}, {@code report.html}, the
 * comparison's {@code compare.md}) and the export files for benchmark trackers, from what was read, judged
 * and drawn.
 */
package io.p2pbench.report.render;
