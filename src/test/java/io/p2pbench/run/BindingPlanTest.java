package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.cuda.Binding;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.JmhBenchmark;
import io.p2pbench.topology.SyntheticTopologies;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.Sizes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/** The JCuda twins of the small latency rows: where they are planned and what JMH is told. */
class BindingPlanTest {
    private static List<Combination> plan(Topology t, Preset p, List<Long> sizes) {
        return RunPlanner.plan(t, new RunPlanner.Request(p, null, sizes,
                sizes == null ? null : java.util.Set.of("CE_P2P_READ", "HOST_DEVICE")));
    }

    @Test
    void everySmallLatencyRowOfTheFirstPairAndPinnedHostCopiesHasItsJCudaTwinRightAfterIt() {
        List<Combination> plan = plan(SyntheticTopologies.singleH200(), Preset.FULL, null);
        int twins = 0;
        for (int i = 0; i < plan.size(); i++) {
            Combination c = plan.get(i);
            if (!Binding.JCUDA_DRIVER.name().equals(c.params().get("binding"))) {
                continue;
            }
            twins++;
            Combination before = plan.get(i - 1);
            assertEquals(before.benchmark(), c.benchmark(), c.id());
            assertEquals(before.sizeBytes(), c.sizeBytes());
            assertEquals("latency", c.metric());
            assertTrue(c.sizeBytes() <= RunPlanner.BINDING_MAX_BYTES, c.id());
            assertEquals(before.id().replaceFirst("-lat-", "-lat-jcuda-"), c.id());
            assertEquals(Binding.JAVACPP_RUNTIME.name(), before.params().get("binding"), before.id());
            Map<String, String> asJavaCpp = new java.util.LinkedHashMap<>(c.params());
            asJavaCpp.put("binding", Binding.JAVACPP_RUNTIME.name());
            assertEquals(before.params(), asJavaCpp, "the same copy, only the binding differs");
            assertEquals("binding", c.group());
        }
        // Full sweeps 4 B .. 64 KiB: 15 sizes; CE_P2P_READ 0-0, H2D and D2H pinned.
        assertEquals(15 * 3, twins);
        assertTrue(plan.stream().anyMatch(c -> c.id().equals("peer-lat-jcuda-CE_P2P_READ-0-0-4B")));
        assertTrue(plan.stream().anyMatch(c -> c.id().equals("host-lat-jcuda-H2D-PINNED-LOCAL-gpu0-4B")));
        assertTrue(plan.stream().anyMatch(c -> c.id().equals("host-lat-jcuda-D2H-PINNED-LOCAL-gpu0-4B")));
    }

    @Test
    void largeSizesAndBandwidthRowsGetNoTwin() {
        List<Combination> plan = plan(SyntheticTopologies.nvswitch8(), Preset.QUICK, List.of(4L, Sizes.MIB));
        java.util.function.Predicate<Combination> jcuda = c -> Binding.JCUDA_DRIVER.name().equals(c.params().get("binding"));
        assertTrue(plan.stream().filter(jcuda).allMatch(c -> c.sizeBytes() == 4 && c.metric().equals("latency")));
        assertEquals(3, plan.stream().filter(jcuda).count());
    }

    @Test
    void everyOneWayCopyRowNamesItsBindingAndTheBidirectionalRowsTakeNone() {
        // The catalogue (JmhBenchmark) lists binding for both one-way copy benchmarks, and every plan names
        // every @Param its class has (JmhBenchmarkListTest); results written before the parameter read as JavaCPP's.
        List<Combination> plan = plan(SyntheticTopologies.nvswitch8(), Preset.QUICK, null);
        for (Combination c : plan) {
            boolean oneWayCopy = c.benchmark().startsWith(JmhBenchmark.PEER_COPY.className() + ".")
                    || c.benchmark().startsWith(JmhBenchmark.HOST_DEVICE_COPY.className() + ".");
            assertEquals(oneWayCopy, c.params().containsKey("binding"), c.id());
            if (oneWayCopy && !"binding".equals(c.group())) {
                assertEquals(Binding.JAVACPP_RUNTIME.name(), c.params().get("binding"), c.id());
            }
        }
    }

    @Test
    void theTwinIdIsTheRowsIdWithJcudaAfterTheMetricTag() {
        Combination row = plan(SyntheticTopologies.singleH200(), Preset.QUICK, List.of(4L)).stream()
                .filter(c -> c.id().equals("peer-lat-CE_P2P_READ-0-0-4B")).findFirst().orElseThrow();
        assertEquals("peer-lat-jcuda-CE_P2P_READ-0-0-4B", RunPlanner.jcudaTwin(row).id());
        Combination bandwidth = plan(SyntheticTopologies.singleH200(), Preset.QUICK, List.of(4L)).stream()
                .filter(c -> c.id().equals("peer-bw-CE_P2P_READ-0-0-4B")).findFirst().orElseThrow();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> RunPlanner.jcudaTwin(bandwidth));
    }

    @Test
    void theBenchmarksTakeTheBindingParameterWithJavaCppAsTheOnlyDefault() throws Exception {
        for (String bench : List.of("PeerCopyBenchmark", "HostDeviceCopyBenchmark")) {
            Param p = Class.forName("io.p2pbench.bench." + bench).getField("binding").getAnnotation(Param.class);
            assertEquals(List.of(Binding.JAVACPP_RUNTIME.name()), List.of(p.value()),
                    bench + ": one default value, so rows without the parameter stay JavaCPP's and the plan does not double");
        }
    }
}
