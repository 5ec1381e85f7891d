package io.p2pbench.serving;

/**
 * One serving sweep on one executor: a short warm-up, then the capacity search
 * ({@link CapacitySearch}), each point a fresh open-loop load ({@link LoadGenerator}) at its rate,
 * served by a fresh {@link ContinuousBatcher} that starts empty. The same code serves on the GPU
 * (host clock) and in predictions and tests (virtual clock, {@link ModelStepExecutor}).
 */
public final class ServingSession {
    private final ServingSweep sweep;
    private final StepExecutor executor;
    private final Clock clock;
    private final long kvTokens;

    /**
     * @param kvTokens the plan's KV capacity ({@link KvCapacity#tokens()}); the longest request of the workload
     *     must fit it and the executor's context limit
     */
    public ServingSession(ServingSweep sweep, StepExecutor executor, Clock clock, long kvTokens) {
        int longest = sweep.workload().maxContextTokens();
        if (longest > kvTokens || longest > executor.limits().maxContextTokens()) {
            throw new IllegalArgumentException("the longest request (" + longest + " tokens of prompt and output) does "
                    + "not fit: the KV cache holds " + kvTokens + " tokens, a sequence at most "
                    + executor.limits().maxContextTokens());
        }
        this.sweep = sweep;
        this.executor = executor;
        this.clock = clock;
        this.kvTokens = kvTokens;
    }

    /** The batch policy the scheduler applies here (the sweep's within the executor's limits). */
    public BatchPolicy policy() {
        return sweep.policy().within(executor.limits());
    }

    /** One point at {@code rate}: warm-up, measured and cool-down requests as the workload says. */
    public ContinuousBatcher.Served point(double rate, long capNanos) {
        Workload w = sweep.workload();
        int warmup = w.warmup(rate);
        return new ContinuousBatcher(executor, clock, sweep.policy(), kvTokens)
                .serve(new LoadGenerator(w, rate), warmup, warmup + w.measured(), capNanos);
    }

    /**
     * Serves about {@code seconds} of arrivals at the search's first rate and keeps nothing: the JIT
     * compiles the scheduler and the GPU leaves its idle clocks before the first point.
     */
    public void warmUp(double seconds) {
        double rate = sweep.search().startRatePerSecond();
        int requests = (int) Math.max(8, Math.ceil(rate * seconds));
        new ContinuousBatcher(executor, clock, sweep.policy(), kvTokens)
                .serve(new LoadGenerator(sweep.workload(), rate), 0, requests, (long) ((2 * seconds + 10) * 1e9));
    }

    /** The capacity search. */
    public CapacitySearch.Outcome search() {
        return CapacitySearch.run(sweep.search(), sweep.target(), sweep.workload(), this::point, clock);
    }
}
