/**
 * What the run's executor (the parent, {@code io.p2pbench.run}) and a benchmark JVM (the fork, {@code src/jmh})
 * share, below both: the channel between them ({@link io.p2pbench.fork.ForkChannel}), the phases a fork marks
 * ({@link io.p2pbench.fork.ForkPhases}) and the JVM options of every fork ({@link io.p2pbench.fork.ForkSettings}).
 */
package io.p2pbench.fork;
