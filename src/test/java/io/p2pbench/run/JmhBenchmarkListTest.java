package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.p2pbench.fork.ForkChannel;
import io.p2pbench.fork.ForkSettings;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.spec.Metric;
import io.p2pbench.spec.JmhBenchmark;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/**
 * The planner and the JMH classes share benchmark, method and {@code @Param} names; this checks them
 * against JMH's generated {@code META-INF/BenchmarkList} (written by the annotation processor into
 * target/classes), so a rename fails here rather than on the GPU node.
 */
class JmhBenchmarkListTest {
    private static final Map<String, BenchmarkListEntry> ENTRIES = new HashMap<>();

    @BeforeAll
    static void readList() throws IOException {
        try (InputStream in = JmhBenchmarkListTest.class.getResourceAsStream(BenchmarkList.BENCHMARK_LIST)) {
            assertNotNull(in, BenchmarkList.BENCHMARK_LIST + " is not on the test class path; was src/jmh compiled?");
            for (BenchmarkListEntry e : BenchmarkList.readBenchmarkList(in)) {
                ENTRIES.put(e.getUsername(), e);
            }
        }
    }

    /** A benchmark's {@code @Param}s but the run's staging chunk, which plans do not carry (StagingChunkParamTest). */
    private static Set<String> planParams(BenchmarkListEntry e) {
        Set<String> names = new HashSet<>(e.getParams().orElse(Map.of()).keySet());
        names.remove(ForkChannel.STAGING_CHUNK_PARAM);
        return names;
    }

    @Test
    void everyCatalogueEntryIsAGeneratedBenchmarkWithExactlyTheseParams() {
        Set<String> named = new HashSet<>();
        for (JmhBenchmark b : JmhBenchmark.values()) {
            for (Metric m : b.metrics()) {
                BenchmarkListEntry e = ENTRIES.get(b.method(m));
                assertNotNull(e, b.method(m) + " is not in JMH's benchmark list " + ENTRIES.keySet());
                assertEquals(Set.copyOf(b.paramNames()), planParams(e), b.method(m));
                named.add(b.method(m));
            }
        }
        assertEquals(ENTRIES.keySet(), named, "every generated benchmark is known to the planner");
    }

    @Test
    void everyBenchmarkForksOnceWithTheSuitesJvmOptionsFromItsStateBaseClass() {
        for (BenchmarkListEntry e : ENTRIES.values()) {
            assertEquals(1, e.getForks().orElse(-1), e.getUsername());
            assertTrue(e.getJvmArgsAppend().orElse(List.of()).containsAll(ForkSettings.all()),
                    e.getUsername() + ": " + e.getJvmArgsAppend().orElse(List.of()));
            assertEquals(1, e.getMeasurementIterations().orElse(-1), e.getUsername());
        }
    }

    @Test
    void everyPlannedBenchmarkAndParameterValueIsAcceptedByItsClass() throws Exception {
        List<Topology> topologies = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("src/test/resources/topologies"))) {
            for (Path f : files.sorted().toList()) {
                topologies.add(TopologyJson.read(f));
            }
        }
        assertTrue(topologies.size() >= 4);
        Set<Kind> kinds = new HashSet<>();
        int checked = 0;
        for (Topology t : topologies) {
            for (Preset p : List.of(Preset.QUICK, Preset.STANDARD, Preset.FULL)) {
                for (String model : new String[] {null, "DENSE_70B", "MOE_8X_TOP2"}) {
                    // the default plan, then the opt-in partition study
                    List<Combination> planned = new ArrayList<>(RunPlanner.plan(t, new RunPlanner.Request(p, null, null,
                            null, null, model)));
                    planned.addAll(RunPlanner.plan(t, new RunPlanner.Request(p, null, null, Set.of(RunPlanner.PARTITION),
                            null, model)));
                    if (p == Preset.QUICK) {
                        // the serving sweeps simulate their searches while planning: one preset is enough here
                        planned.addAll(RunPlanner.plan(t, new RunPlanner.Request(p, null, null,
                                Set.of(RunPlanner.SERVING), null, model)));
                    }
                    for (Combination c : planned) {
                        BenchmarkListEntry e = ENTRIES.get(c.benchmark());
                        assertNotNull(e, c.id() + ": " + c.benchmark() + " is not a generated benchmark");
                        assertEquals(planParams(e), c.params().keySet(), c.id());
                        Class<?> type = Class.forName(e.getUserClassQName());
                        for (Map.Entry<String, String> param : c.params().entrySet()) {
                            requireAccepted(type.getField(param.getKey()), param.getValue(), c.id());
                        }
                        kinds.add(Kind.of(c.kind()));
                        Metric.of(c.metric());
                        checked++;
                    }
                }
            }
        }
        assertEquals(Set.of(Kind.values()), kinds, "every kind is planned somewhere");
        assertTrue(checked > 5000, "checked " + checked);
    }

    /** The value JMH would inject: an enum constant, a number, a boolean, or a string. */
    private static void requireAccepted(Field f, String value, String id) {
        Class<?> t = f.getType();
        try {
            if (t.isEnum()) {
                boolean found = false;
                for (Object constant : t.getEnumConstants()) {
                    found |= ((Enum<?>) constant).name().equals(value);
                }
                if (!found) {
                    fail(id + ": " + value + " is not a " + t.getSimpleName());
                }
            } else if (t == long.class) {
                Long.parseLong(value);
            } else if (t == int.class) {
                Integer.parseInt(value);
            } else if (t == boolean.class) {
                assertTrue(value.equals("true") || value.equals("false"), id + ": " + f.getName() + " = '" + value
                        + "' is not a boolean");
            } else if (t == double.class) {
                Double.parseDouble(value);
            } else {
                assertEquals(String.class, t, id + ": " + f.getName());
            }
        } catch (NumberFormatException e) {
            fail(id + ": " + f.getName() + " = '" + value + "' is not a " + t);
        }
    }
}
