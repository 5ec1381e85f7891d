/**
 * Reading: a p2pbench result folder (manifest, JMH JSON, samples files) turned into
 * {@link io.p2pbench.report.read.Measurement}s and serving sweeps, every value checked and every path kept
 * inside its folder. Nothing here judges, draws or writes.
 */
package io.p2pbench.report.read;
