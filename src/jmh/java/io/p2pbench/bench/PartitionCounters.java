package io.p2pbench.bench;

import io.p2pbench.transfer.BatchMedians;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A partition step's figures as JMH secondary metrics, medians over the iteration's invocations:
 * device time per step of back-to-back steps ({@code stepUs}), tokens per second from it, and one
 * instrumented step's compute, exposed communication and wait ({@code computeUs}, {@code commUs},
 * {@code waitUs}, {@code unaccountedUs}), with the bus bandwidth of the exchanges over the exposed
 * communication time ({@code busGBps}, decimal GB/s).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class PartitionCounters {
    private final BatchMedians m = new BatchMedians(7);

    /** Forgets the previous iteration. */
    @Setup(Level.Iteration)
    public void reset() {
        m.clear();
    }

    void add(double stepUs, double tokensPerSecond, double computeUs, double commUs, double waitUs, double unaccountedUs,
             double busGBps) {
        m.add(stepUs, tokensPerSecond, computeUs, commUs, waitUs, unaccountedUs, busGBps);
    }

    /** Device time per step, back-to-back steps, microseconds. */
    public double stepUs() {
        return m.median(0);
    }

    /** Tokens per second. */
    public double tokensPerSecond() {
        return m.median(1);
    }

    /** Compute of the instrumented step's critical rank, microseconds. */
    public double computeUs() {
        return m.median(2);
    }

    /** Exposed communication, microseconds. */
    public double commUs() {
        return m.median(3);
    }

    /** Synchronisation wait, microseconds. */
    public double waitUs() {
        return m.median(4);
    }

    /** Instrumented step time not covered by compute, communication or wait, microseconds. */
    public double unaccountedUs() {
        return m.median(5);
    }

    /** Bus bandwidth of the exchanges over the exposed communication time, GB/s (0 without exchanges). */
    public double busGBps() {
        return m.median(6);
    }
}
