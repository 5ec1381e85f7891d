/**
 * Text pieces of the report: Markdown tables and the number formats of the rendering ({@code Markdown}), and
 * the plain numbers the verdicts' reasons share with it ({@code Numbers}).
 * Imports nothing of the report, so every other report package may use it.
 */
package io.p2pbench.report.text;
