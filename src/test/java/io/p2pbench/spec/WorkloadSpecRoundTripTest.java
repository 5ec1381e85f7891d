package io.p2pbench.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.spec.Metric;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.run.Preset;
import io.p2pbench.run.RunPlanner;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of spec survives a manifest: spec -> manifest.json -> spec, and every planned row reads as its spec. */
class WorkloadSpecRoundTripTest {
    private static final Path TOPOLOGY = Path.of("src/test/resources/topologies/h200x8-nv18-r580.json");

    /** The default plan, the partition study and the serving sweeps of an eight-GPU machine. */
    static List<Combination> planned() throws IOException {
        Topology t = TopologyJson.read(TOPOLOGY);
        List<Combination> out = new ArrayList<>(RunPlanner.plan(t, new RunPlanner.Request(Preset.QUICK, null, null, null)));
        out.addAll(RunPlanner.plan(t, new RunPlanner.Request(Preset.QUICK, null, null,
                Set.of(RunPlanner.PARTITION, RunPlanner.SERVING))));
        return out;
    }

    @Test
    void everyKindRoundTripsThroughAManifest(@TempDir Path dir) throws IOException {
        Map<Kind, WorkloadSpec> one = new EnumMap<>(Kind.class);
        for (Combination c : planned()) {
            one.putIfAbsent(Kind.of(c.kind()), WorkloadSpec.of(c));
        }
        assertEquals(Set.of(Kind.values()), one.keySet(), "a spec of every kind is planned");
        List<RunManifest.Entry> entries = new ArrayList<>();
        for (WorkloadSpec s : one.values()) {
            Metric metric = s.benchmark().metrics().iterator().next();
            long size = Long.parseLong(s.params().getOrDefault("sizeBytes", "1024")); // one size, as a manifest requires
            entries.add(RunManifest.Entry.planned(s.combination("row-" + s.kind().label(), metric, "test", "group", size,
                    false, null, 1.0)));
        }
        ResultFolder folder = ResultFolder.open(dir);
        folder.writeManifest(new RunManifest(RunManifest.FORMAT, "test", "unknown", "p2pbench run", "quick", "fp",
                "2026-01-01T00:00:00Z", null, "running", Map.of(), entries));
        List<RunManifest.Entry> read = folder.readManifest().entries();
        assertEquals(one.size(), read.size());
        int i = 0;
        for (WorkloadSpec s : one.values()) {
            Combination c = read.get(i++).combination();
            assertEquals(s, WorkloadSpec.of(c), c.id());
            assertEquals(s.kind().label(), c.kind(), c.id());
            assertEquals(List.copyOf(s.params().entrySet()), List.copyOf(c.params().entrySet()), c.id());
            assertTrue(c.benchmark().startsWith(s.benchmark().className() + "."), c.benchmark());
        }
    }

    @Test
    void everyPlannedRowReadsAsTheSpecThatWroteIt() throws IOException {
        int checked = 0;
        for (Combination c : planned()) {
            WorkloadSpec s = WorkloadSpec.of(c);
            assertEquals(List.copyOf(c.params().entrySet()), List.copyOf(s.params().entrySet()), c.id());
            assertEquals(s, WorkloadSpec.read(s.kind(), s.params()), c.id());
            assertEquals(c.benchmark(), s.method(Metric.of(c.metric())), c.id());
            if (c.params().containsKey("sizeBytes")) {
                // What a manifest's reader requires of every entry (ManifestValues).
                assertEquals(c.params().get("sizeBytes"), Long.toString(c.sizeBytes()), c.id());
            }
            checked++;
        }
        assertTrue(checked > 300, "checked " + checked);
    }

    @Test
    void everyCommittedResultReadsAsSpecs() throws IOException {
        List<Path> manifests;
        try (Stream<Path> s = Files.walk(Path.of("results"))) {
            manifests = s.filter(f -> f.getFileName().toString().equals("manifest.json")).sorted().toList();
        }
        assertTrue(manifests.size() >= 10, "manifests: " + manifests);
        int read = 0;
        for (Path m : manifests) {
            for (RunManifest.Entry e : ResultFolder.open(m.getParent()).readManifest().entries()) {
                Combination c = e.combination();
                if (Kind.find(c.kind()) == null) {
                    continue; // a kind of another tool (a launched job's rows), not a workload of this suite
                }
                // Parameters retired since (an exchange's boundaries and skew) are recorded but not read.
                for (Map.Entry<String, String> p : WorkloadSpec.of(c).params().entrySet()) {
                    if (p.getKey().equals("binding") && !c.params().containsKey("binding")) {
                        continue; // written before the binding was a parameter: JavaCPP's
                    }
                    assertEquals(c.params().get(p.getKey()), p.getValue(), m + ": " + c.id() + " " + p.getKey());
                }
                read++;
            }
        }
        assertTrue(read > 100, "read " + read);
    }

    @Test
    void aBadParameterIsNamedWithWhatIsAccepted() {
        Map<String, String> peer = new LinkedHashMap<>(JmhBenchmark.PEER_COPY.params("0-1", "CE_P2P_READ", 4096,
                "JAVACPP_RUNTIME"));
        assertNotNull(WorkloadSpec.read(Kind.PEER, peer));
        peer.remove("pair");
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> WorkloadSpec.read(Kind.PEER, peer));
        assertEquals("peer lacks parameter 'pair'", missing.getMessage());
        peer.put("pair", "0-1");
        peer.put("path", "WARP_DRIVE");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> WorkloadSpec.read(Kind.PEER, peer));
        assertTrue(bad.getMessage().startsWith("peer parameter path = 'WARP_DRIVE' is not one of [CE_P2P_READ"),
                bad.getMessage());
        peer.put("path", "CE_P2P_READ");
        peer.put("sizeBytes", "4k");
        assertEquals("peer parameter sizeBytes = '4k' is not a whole number",
                assertThrows(IllegalArgumentException.class, () -> WorkloadSpec.read(Kind.PEER, peer)).getMessage());
    }
}
