/**
 * Imports: outputs of NVIDIA's tools (nvbandwidth {@code -j}, nccl-tests {@code -J} JSON and printed tables)
 * read as baselines and mapped onto p2pbench's measurements, so {@code compare} can set them against a run.
 */
package io.p2pbench.report.imports;
