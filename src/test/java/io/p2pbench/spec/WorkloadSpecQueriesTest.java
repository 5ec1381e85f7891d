package io.p2pbench.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The specs' own answers for code outside {@code spec}: the host buffer of host-device copies, the typed read of one kind. */
class WorkloadSpecQueriesTest {
    private static Map<Kind, WorkloadSpec> onePerKind() throws IOException {
        Map<Kind, WorkloadSpec> one = new EnumMap<>(Kind.class);
        for (Combination c : WorkloadSpecRoundTripTest.planned()) {
            one.putIfAbsent(Kind.of(c.kind()), WorkloadSpec.of(c));
        }
        assertEquals(Set.of(Kind.values()), one.keySet(), "a spec of every kind is planned");
        return one;
    }

    @Test
    void exactlyTheHostDeviceCopiesHaveAHostBufferAndItIsTheSpec() throws IOException {
        for (WorkloadSpec s : onePerKind().values()) {
            boolean host = s.kind() == Kind.HOST || s.kind() == Kind.HOST_BIDIR;
            assertEquals(host, s.hostBuffer().isPresent(), s.toString());
            if (host) {
                assertSame(s, s.hostBuffer().get(), s.toString());
            }
        }
    }

    @Test
    void servingAndPartitionRowsReadAsTheirRecordAndRefuseOtherKinds() throws IOException {
        Map<Kind, WorkloadSpec> one = onePerKind();
        WorkloadSpec sweep = one.get(Kind.SERVING);
        Combination serving = sweep.combination("s", sweep.benchmark().metrics().iterator().next(), "serving", "group",
                0, false, null, 1.0);
        assertEquals(sweep, Serving.of(serving));
        WorkloadSpec partition = one.get(Kind.PARTITION);
        Combination row = partition.combination("p", partition.benchmark().metrics().iterator().next(), "partition",
                "group", 0, false, null, 1.0);
        assertEquals(partition, PartitionRun.of(row));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Serving.of(row));
        assertEquals("p is of kind partition, not a serving sweep", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> PartitionRun.of(serving));
        assertEquals("s is of kind serving, not a partition run", e.getMessage());
    }
}
