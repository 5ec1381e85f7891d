package io.p2pbench.run;

import io.p2pbench.partition.Phase;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import java.util.Locale;

/**
 * How a kind of GPU and its host run the partition study against {@link TimePredictor#partitionStepSeconds}'s model,
 * for the predicted time of a run: measured step time over the model's, per phase, and the seconds of one step's
 * verification after each iteration. Fitted to the partition runs of each node (DENSE_8B, group 0,0, quick preset).
 *
 * @param gpu what the profile is named for
 * @param prefillScale measured prefill step over the model's
 * @param decodeScale measured decode step over the model's
 * @param checkSeconds one step's verification after an iteration (a request verifies two)
 */
public record PartitionRates(String gpu, double prefillScale, double decodeScale, double checkSeconds) {
    /**
     * The H200 node, 2026-12-02 (results/h200x1-single-r580, 18-05-20Z and 18-32-13Z): DENSE_8B prefill 304-306 ms a
     * step against the model's 384 ms, MOE_8X_TOP2 541 ms against 659; decode 4.69-4.94 ms against 5.95 (DENSE_8B),
     * 25.3-26.1 ms against 25.6 (MOE_8X_TOP2), 0.85 between the two; the verification 0.06 s as fitted to those runs'
     * wall times when a request counted one (with two, and these scales, the two runs are predicted +2.6% and -5.6%).
     * Also the profile of a GPU none of the others names.
     */
    public static final PartitionRates H200 = new PartitionRates("H200", 0.80, 0.85, 0.06);
    /**
     * The H100 80GB node, 2026-12-07 (five runs on two hosts, GPU-081fa297 and GPU-c7fde7ca): DENSE_8B prefill
     * 400-435 ms a step against the model's 384-394 ms, decode 7.5-8.0 ms against 5.95 ms (SINGLE and PP, graphs and
     * eager); each step's verification 0.12-0.19 s an iteration, a request's two 0.25-0.37 s.
     */
    public static final PartitionRates H100 = new PartitionRates("H100", 1.04, 1.30, 0.15);

    /** The model's step time scaled for {@code phase}. */
    double scale(Phase phase) {
        return phase == Phase.PREFILL ? prefillScale : decodeScale;
    }

    /** The profile of {@code t}'s GPUs: {@link #H100} where the first GPU's name says H100, else {@link #H200}. */
    public static PartitionRates of(Topology t) {
        return t.gpus().stream().findFirst().map(GpuInfo::name).map(PartitionRates::ofName).orElse(H200);
    }

    static PartitionRates ofName(String name) {
        return name != null && name.toUpperCase(Locale.ROOT).contains("H100") ? H100 : H200;
    }
}
