/**
 * Text pieces the verdicts and the rendering share: Markdown tables and the number formats of the report.
 * Imports nothing of the report, so every other report package may use it.
 */
package io.p2pbench.report.text;
