package io.p2pbench.serving;

import java.util.function.ToLongFunction;

/**
 * A {@link StepExecutor} that runs nothing: each step advances a {@link VirtualClock} by a modelled
 * time ({@link StepCostModel}, or any function in tests) and returns it. Serving on it is
 * deterministic and takes no real time: the tests' executor and the planner's predictions.
 */
public final class ModelStepExecutor implements StepExecutor {
    private final ToLongFunction<StepShape> nanos;
    private final VirtualClock clock;
    private final StepLimits limits;
    private long steps;

    /** Steps of {@code nanos(shape)} nanoseconds on {@code clock}, within {@code limits}. */
    public ModelStepExecutor(ToLongFunction<StepShape> nanos, VirtualClock clock, StepLimits limits) {
        this.nanos = nanos;
        this.clock = clock;
        this.limits = limits;
    }

    @Override
    public long run(StepShape shape) {
        if (!limits.admits(shape)) {
            throw new IllegalArgumentException("step " + shape + " exceeds " + limits);
        }
        long t = nanos.applyAsLong(shape);
        clock.advance(t);
        steps++;
        return t;
    }

    @Override
    public StepLimits limits() {
        return limits;
    }

    /** Steps run so far. */
    public long steps() {
        return steps;
    }

    @Override
    public void close() {
        // nothing to free
    }
}
