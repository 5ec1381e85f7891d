/**
 * Typed specs of the workloads the suite plans, runs and reads back: one record per JMH benchmark class
 * ({@link io.p2pbench.spec.PeerCopy}, {@link io.p2pbench.spec.HostCopy}, {@link io.p2pbench.spec.Ring},
 * {@link io.p2pbench.spec.NcclOp}, {@link io.p2pbench.spec.Exchange}, {@link io.p2pbench.spec.PartitionRun},
 * {@link io.p2pbench.spec.Serving}, ...). A spec owns its JMH benchmark and {@code @Param} values (its
 * {@link io.p2pbench.spec.WorkloadSpec#params()} is the only place it becomes strings), its reading back from a
 * manifest ({@link io.p2pbench.spec.WorkloadSpec#read} is the only place those strings are parsed) and its domain
 * rules (ranks, the GPUs it uses). Code outside this package does what differs per workload through
 * {@link io.p2pbench.spec.WorkloadSpec.Cases}, one method per record, so that a new workload fails to compile until
 * every visitor handles it; it never tests a spec's type. {@link io.p2pbench.spec.SecondaryMetric} names the
 * figures the benchmarks report.
 *
 * <p>The plan row itself ({@link io.p2pbench.spec.Combination}: kind, metric and parameters in the string
 * form a manifest stores) and the {@link io.p2pbench.spec.Kind} and {@link io.p2pbench.spec.Metric} enums live
 * here too, so that no benchmark parameters travel as strings outside this package.
 *
 * <p>Layering: {@code run}, {@code report}, {@code results} (the manifest holds plan rows) and {@code bench} use
 * this package; it uses the workload packages ({@code transfer}, {@code collective}, {@code partition},
 * {@code serving}) and nothing above them.
 */
package io.p2pbench.spec;
