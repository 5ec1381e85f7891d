/**
 * Typed specs of the workloads the suite plans, runs and reads back: one record per JMH benchmark class
 * ({@link io.p2pbench.spec.PeerCopy}, {@link io.p2pbench.spec.HostCopy}, {@link io.p2pbench.spec.Ring},
 * {@link io.p2pbench.spec.NcclOp}, {@link io.p2pbench.spec.Exchange}, {@link io.p2pbench.spec.PartitionRun},
 * {@link io.p2pbench.spec.Serving}, ...). A spec owns its JMH benchmark and {@code @Param} values (its
 * {@link io.p2pbench.spec.WorkloadSpec#params()} is the only place it becomes strings), its reading back from a
 * manifest ({@link io.p2pbench.spec.WorkloadSpec#read} is the only place those strings are parsed) and its domain
 * rules (ranks, the GPUs it uses). {@link io.p2pbench.spec.SecondaryMetric} names the figures the benchmarks
 * report.
 *
 * <p>Layering: {@code run}, {@code report} and {@code bench} use this package; it uses {@code results} (the
 * manifest's {@link io.p2pbench.results.Combination}, whose string form it writes and reads, and the
 * {@link io.p2pbench.results.Kind} and {@link io.p2pbench.results.Metric} enums) and the workload packages
 * ({@code transfer}, {@code collective}, {@code partition}, {@code serving}).
 */
package io.p2pbench.spec;
