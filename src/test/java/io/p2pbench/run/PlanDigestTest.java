package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.spec.Combination;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The same commands give the same plans: for every committed topology and preset (and the partition study),
 * the plan's combinations (id, benchmark, kind, metric, parameters, group, link, size, skip reason; not the
 * predicted seconds, which the predictor's calibration may move) are digested and checked against {@link #DIGEST}.
 * A change that alters a plan fails here until the plan is recorded again on purpose:
 * <pre>
 *   mvn -B -q test -Dtest=PlanDigestTest -Dp2pbench.plans.record=true
 * </pre>
 * and the commit says why the plans changed.
 */
class PlanDigestTest {
    static final Path DIGEST = Path.of("src/test/resources/plan-digests.tsv");
    private static final Path TOPOLOGIES = Path.of("src/test/resources/topologies");

    @Test
    void everyCommittedTopologyAndPresetPlansAsRecorded() throws IOException {
        Map<String, String> now = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(TOPOLOGIES)) {
            files = s.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(files.size() >= 4, "topologies: " + files);
        for (Path f : files) {
            Topology t = TopologyJson.read(f);
            String name = f.getFileName().toString().replace(".json", "");
            for (Preset p : List.of(Preset.QUICK, Preset.STANDARD, Preset.FULL)) {
                now.put(name + "\t" + p.name(), line(RunPlanner.plan(t, new RunPlanner.Request(p, null, null, null))));
            }
            now.put(name + "\tquick PARTITION", line(RunPlanner.plan(t,
                    new RunPlanner.Request(Preset.QUICK, null, null, Set.of(RunPlanner.PARTITION)))));
        }
        if (Boolean.getBoolean("p2pbench.plans.record")) {
            List<String> out = new ArrayList<>();
            out.add("# Plans of the committed topologies (PlanDigestTest): topology, preset, combinations, planned skips,");
            out.add("# SHA-256 of every combination's id, benchmark, kind, metric, parameters, group, link, size and skip reason.");
            now.forEach((k, v) -> out.add(k + "\t" + v));
            Files.write(DIGEST, out, StandardCharsets.UTF_8);
        }
        Map<String, String> recorded = new TreeMap<>();
        for (String l : Files.readAllLines(DIGEST, StandardCharsets.UTF_8)) {
            if (!l.startsWith("#") && !l.isBlank()) {
                String[] c = l.split("\t", 3);
                recorded.put(c[0] + "\t" + c[1], c[2]);
            }
        }
        assertEquals(recorded, now, "a plan changed; if on purpose, record again (see this test's Javadoc)");
    }

    /** Combinations, planned skips and the digest of one plan. */
    static String line(List<Combination> plan) {
        long skips = plan.stream().filter(Combination::plannedSkip).count();
        StringBuilder b = new StringBuilder();
        for (Combination c : plan) {
            b.append(c.id()).append('|').append(c.benchmark()).append('|').append(c.kind()).append('|')
                    .append(c.metric()).append('|').append(new TreeMap<>(c.params())).append('|').append(c.group())
                    .append('|').append(c.link()).append('|').append(c.sizeBytes()).append('|').append(c.singleGpu())
                    .append('|').append(c.skipReason()).append('\n');
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(b.toString().getBytes(StandardCharsets.UTF_8));
            return plan.size() + "\t" + skips + "\t" + HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
