/**
 * The two commands that read result folders, {@code p2pbench report} ({@link io.p2pbench.report.Reporter}) and
 * {@code p2pbench compare} ({@link io.p2pbench.report.Compare}), and the output folder they own
 * ({@link io.p2pbench.report.ReportFolder}), written whole or not at all through a staging folder
 * ({@link io.p2pbench.report.StagedOutput}, which {@code whatif} uses too). Each command wires the jobs of the sub-packages together:
 * {@code read} (result folders into measurements), {@code imports} (nvbandwidth and nccl-tests outputs as
 * baselines), {@code stats} (statistics and models over measurements), {@code verdict} (worse, keep, reject),
 * {@code chart} (SVG and PNG charts) and {@code render} (Markdown, HTML and export files).
 * {@link io.p2pbench.report.read.BadInputException} is the one error they all throw for input they cannot use.
 */
package io.p2pbench.report;
