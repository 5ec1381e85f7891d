package io.p2pbench.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/**
 * {@link SecondaryMetric}'s names are exactly the counters the generated benchmarks report: every public
 * numeric method of an {@code @AuxCounters} state that a benchmark method takes, and nothing else.
 */
class SecondaryMetricTest {
    @Test
    void theNamesAreTheBenchmarksCountersAndBack() throws Exception {
        Set<String> counters = new TreeSet<>();
        Set<Class<?>> states = new HashSet<>();
        try (InputStream in = SecondaryMetricTest.class.getResourceAsStream(BenchmarkList.BENCHMARK_LIST)) {
            assertNotNull(in, BenchmarkList.BENCHMARK_LIST + " is not on the test class path; was src/jmh compiled?");
            for (BenchmarkListEntry e : BenchmarkList.readBenchmarkList(in)) {
                Class<?> type = Class.forName(e.getUserClassQName());
                String method = e.getUsername().substring(e.getUsername().lastIndexOf('.') + 1);
                for (Method m : type.getMethods()) {
                    if (m.getName().equals(method)) {
                        for (Class<?> p : m.getParameterTypes()) {
                            if (p.isAnnotationPresent(AuxCounters.class)) {
                                states.add(p);
                            }
                        }
                    }
                }
            }
        }
        assertTrue(states.size() >= 4, "counter states: " + states);
        for (Class<?> state : states) {
            for (Method m : state.getDeclaredMethods()) {
                Class<?> r = m.getReturnType();
                if (Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
                        && (r == double.class || r == long.class || r == int.class)) {
                    counters.add(m.getName());
                }
            }
        }
        assertEquals(new TreeSet<>(SecondaryMetric.ALL), counters);
        assertEquals(SecondaryMetric.ALL.size(), Set.copyOf(SecondaryMetric.ALL).size(), "names are distinct");
    }

    @Test
    void everyConstantIsListed() throws IllegalAccessException {
        Set<Object> constants = new HashSet<>();
        for (var f : SecondaryMetric.class.getFields()) {
            if (f.getType() == String.class) {
                constants.add(f.get(null));
            }
        }
        assertEquals(constants, Set.copyOf(SecondaryMetric.ALL));
    }

    /** Keeps the stream helper honest about a missing list on odd class paths. */
    @Test
    void theListIsOnTheClassPath() throws IOException {
        try (InputStream in = SecondaryMetricTest.class.getResourceAsStream(BenchmarkList.BENCHMARK_LIST)) {
            assertNotNull(in);
        }
    }
}
