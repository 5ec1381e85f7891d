package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a comparison's rounds do not show of a row's total spread is taken as drift between its runs, up to the largest
 * drift any host of the table showed ({@link RunDrift#rowDriftMax}), except for rows drawn at a CUDA context's level.
 * On the H100 node one host's rounds of the TENSOR exchange staged through host memory dropped 10-14% inside its runs;
 * its runs agreed, as every other host's did, yet the total alone put that row's floor at 9.8% on every host.
 */
class RowDriftCapTest {
    private static final Measurement.Key TENSOR = new Measurement.Key("bandwidth", "exchange",
            "TENSOR DENSE_8B over HOST_STAGED", "bus", "0,0,0,0", 32L << 20);
    private static final Measurement.Key SMALL = new Measurement.Key("bandwidth", "peer", "CE_P2P_READ", "one-way",
            "0-0", 1 << 20);

    private static Topology on(String uuid) {
        GpuInfo gpu = new GpuInfo(0, "NVIDIA H100 80GB HBM3", uuid, "0000:00:06.0", "9.0", 85_017_493_504L, 132, 3,
                5, 5, 16, 16, -1, "0-15", List.of(), "");
        return new Topology("0.1.0", "2026-12-06T00:00:00Z", null, List.of(gpu), List.of(), "h100", List.of());
    }

    private static Measurement rounds(Measurement.Key key, double... figures) {
        return Measurement.ofRounds(Arrays.stream(figures).mapToObj(f -> new Measurement(key, "h100", "X", true,
                "sweep", "id", new double[] {f}, "test")).toList());
    }

    private static ResultData run(String name, String uuid, Measurement... m) {
        return new ResultData(Path.of(name), name, "h100", "test", on(uuid), null, List.of(m), List.of(), Map.of(), null);
    }

    /** Nine hosts of two runs: on host 0 one round in four of every run drops 12%; elsewhere rounds agree within 0.3%. */
    private static List<ResultData> nineHosts(Measurement.Key key) {
        List<ResultData> runs = new ArrayList<>();
        for (int h = 0; h < 9; h++) {
            for (int r = 0; r < 2; r++) {
                double base = 7.2 * (1 + 0.001 * h);
                runs.add(run("h" + h + "r" + r, "GPU-" + h, h == 0
                        ? rounds(key, base, base * 0.88, base * 1.001, base * 0.999)
                        : rounds(key, base, base * 1.002, base * 0.998, base * 1.001)));
            }
        }
        return runs;
    }

    private static Comparison.Row compare(Measurement.Key key, RunDrift drift) {
        Measurement b = rounds(key, 7.188, 7.19, 7.18, 7.2);
        Measurement c = rounds(key, 7.209, 7.2, 7.21, 7.215);
        String k = key.toString();
        return RoundRows.measure(List.of(Map.of(k, b)), List.of(Map.of(k, c)), k, b, c, drift,
                new RoundRows.Hosts(false, 1, 1));
    }

    @Test
    void aRowWhoseRoundsSpreadOnOneHostButWhoseRunsAgreeIsJudged() {
        RunDrift table = RunDrift.learn("nine hosts", nineHosts(TENSOR));
        assertTrue(table.total(TENSOR) > 0.02, "one host's wide rounds make the total wide: " + table.total(TENSOR));
        assertTrue(table.rowDriftMax(TENSOR) < 0.005, "no host's runs drifted: " + table.rowDriftMax(TENSOR));
        Comparison.Row row = compare(TENSOR, table);
        assertTrue(row.floor().fraction() < 0.05, "tight rounds on both sides are judged at 5%: " + row.floor());
    }

    /**
     * A baseline of two runs whose own rounds and runs spread more than the table's cap: the cap does not shorten what
     * the machine's own runs show (the table, a prior on another machine, only widens a floor).
     */
    @Test
    void theTablesCapNeverShortensWhatTheBaselinesOwnRunsShow() {
        RunDrift table = RunDrift.learn("nine hosts", nineHosts(TENSOR));
        List<ResultData> own = List.of(run("b1", "GPU-x", rounds(TENSOR, 7.2, 7.0, 7.4, 7.1)),
                run("b2", "GPU-x", rounds(TENSOR, 6.7, 6.9, 6.8, 7.0)));
        RunDrift alone = RunDrift.learn("own", own);
        RunDrift merged = alone.max(table, "both");
        assertTrue(merged.rowDriftMax(TENSOR) < alone.total(TENSOR), "the merged table's cap is below the own total");
        RunDrift used = RunDrift.ofTables(alone, table);
        assertTrue(used.rowDriftMax(TENSOR) >= alone.total(TENSOR), "the cap used is raised to it: "
                + used.rowDriftMax(TENSOR) + " against " + alone.total(TENSOR));
    }

    @Test
    void aRowDrawnAtAContextsLevelKeepsTheWholeTotal() {
        RunDrift table = RunDrift.learn("nine hosts", nineHosts(SMALL));
        assertTrue(Double.isNaN(table.rowDriftMax(SMALL)), "no cap for a row whose level may hold for a whole run");
        Comparison.Row row = compare(SMALL, table);
        assertTrue(row.floor().fraction() > 0.05, "the total stays possible drift: " + row.floor());
    }
}
