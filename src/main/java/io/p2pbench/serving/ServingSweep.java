package io.p2pbench.serving;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything a serving sweep needs beyond the model, plan, transport and GPUs: the workload, the
 * batch policy, the latency target and the rate search. It is what crosses from the planner to the
 * benchmark (one JMH parameter, {@code sweep}) and back into the report (the manifest's parameters):
 * written by {@link #encode()} and read by {@link #parse(String)}, here and nowhere else.
 *
 * @param plannedGpuBytes the GPU memory the planner assumed (the topology's), for predictions; the
 *     benchmark uses the GPUs' real free memory
 */
public record ServingSweep(Workload workload, BatchPolicy policy, Target target, SearchPlan search,
                           long plannedGpuBytes) {
    private static final List<String> KEYS = List.of("prompt", "output", "seed", "requests", "warmup", "batch", "tokens",
            "ttft", "tpot", "start", "growth", "points", "bisect", "down", "budget", "gpu");

    /** Checks presence. */
    public ServingSweep {
        if (workload == null || policy == null || target == null || search == null || plannedGpuBytes < 0) {
            throw new IllegalArgumentException("incomplete serving sweep");
        }
    }

    /** One line: {@code prompt=256..768;output=64..192;seed=27;requests=200;warmup=20/2.0s;...}. */
    public String encode() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("prompt", workload.prompt().toString());
        m.put("output", workload.output().toString());
        m.put("seed", Long.toString(workload.seed()));
        m.put("requests", Integer.toString(workload.measured()));
        m.put("warmup", workload.warmupMin() + "/" + workload.warmupSeconds() + "s");
        m.put("batch", Integer.toString(policy.maxSequences()));
        m.put("tokens", Integer.toString(policy.stepTokens()));
        m.put("ttft", Target.formatDuration(target.ttftP99Nanos()));
        m.put("tpot", Target.formatDuration(target.tpotP99Nanos()));
        m.put("start", Double.toString(search.startRatePerSecond()));
        m.put("growth", Double.toString(search.growth()));
        m.put("points", Integer.toString(search.maxPoints()));
        m.put("bisect", Integer.toString(search.bisections()));
        m.put("down", Integer.toString(search.maxDown()));
        m.put("budget", search.budgetSeconds() + "s");
        m.put("gpu", Long.toString(plannedGpuBytes));
        StringBuilder sb = new StringBuilder();
        m.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ";").append(k).append('=').append(v));
        return sb.toString();
    }

    /**
     * Reads {@link #encode()}'s line back; every key is required, once.
     *
     * @throws IllegalArgumentException one line naming what is wrong
     */
    public static ServingSweep parse(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String part : (text == null ? "" : text).split(";")) {
            int eq = part.indexOf('=');
            String key = eq < 0 ? part : part.substring(0, eq);
            if (eq < 0 || !KEYS.contains(key) || m.put(key, part.substring(eq + 1)) != null) {
                throw new IllegalArgumentException("serving sweep '" + text + "': '" + part + "' is not one of "
                        + String.join(", ", KEYS) + " given once as key=value");
            }
        }
        if (!m.keySet().containsAll(KEYS)) {
            throw new IllegalArgumentException("serving sweep '" + text + "' lacks " + KEYS.stream()
                    .filter(k -> !m.containsKey(k)).toList());
        }
        try {
            String[] warm = m.get("warmup").split("/");
            if (warm.length != 2 || !warm[1].endsWith("s")) {
                throw new IllegalArgumentException("warmup '" + m.get("warmup") + "' is not COUNT/SECONDSs");
            }
            Workload w = new Workload(LengthRange.parse(m.get("prompt")), LengthRange.parse(m.get("output")),
                    Long.parseLong(m.get("seed")), Integer.parseInt(m.get("requests")), Integer.parseInt(warm[0]),
                    Double.parseDouble(warm[1].substring(0, warm[1].length() - 1)));
            BatchPolicy p = new BatchPolicy(Integer.parseInt(m.get("batch")), Integer.parseInt(m.get("tokens")));
            Target t = new Target(Target.parseDuration("ttft", m.get("ttft")), Target.parseDuration("tpot", m.get("tpot")));
            String budget = m.get("budget");
            if (!budget.endsWith("s")) {
                throw new IllegalArgumentException("budget '" + budget + "' is not SECONDSs");
            }
            SearchPlan s = new SearchPlan(Double.parseDouble(m.get("start")), Double.parseDouble(m.get("growth")),
                    Integer.parseInt(m.get("points")), Integer.parseInt(m.get("bisect")), Integer.parseInt(m.get("down")),
                    Double.parseDouble(budget.substring(0, budget.length() - 1)));
            return new ServingSweep(w, p, t, s, Long.parseLong(m.get("gpu")));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("serving sweep '" + text + "': " + e.getMessage());
        }
    }

    /**
     * What two sweeps must share to be compared: the workload, policy, target, start rate and growth (so the same
     * requests at the same geometric rates), not the time budget, point count or planned memory, which change
     * with how many sweeps a run holds.
     */
    public String comparableKey() {
        return String.join(";", List.of(encode().split(";")).subList(0, KEYS.indexOf("points")));
    }

    /** The workload and policy in words, for plans and reports. */
    public String describe() {
        Workload w = workload;
        return String.format(Locale.ROOT, "prompt %s and output %s tokens (%s), Poisson arrivals, seed %d; %d measured "
                        + "requests per point after a warm-up of max(%d, %.3g s of arrivals); %d sequences, %d tokens per "
                        + "step; target %s", w.prompt(), w.output(),
                w.prompt().min() == w.prompt().max() && w.output().min() == w.output().max() ? "fixed" : "uniform",
                w.seed(), w.measured(), w.warmupMin(), w.warmupSeconds(), policy.maxSequences(), policy.stepTokens(),
                target);
    }
}
