package io.p2pbench.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The open-loop load: seeded, Poisson at its rate (statistical checks on fixed seeds, no timing). */
class LoadGeneratorTest {
    private static Workload workload(long seed) {
        return new Workload(new LengthRange(256, 768), new LengthRange(64, 192), seed, 200, 20, 2.0);
    }

    private static List<Request> take(LoadGenerator g, int n) {
        List<Request> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(g.next());
        }
        return out;
    }

    @Test
    void oneSeedGivesOneLoadAndAnotherSeedAnother() {
        List<Request> a = take(new LoadGenerator(workload(27), 40), 500);
        List<Request> b = take(new LoadGenerator(workload(27), 40), 500);
        List<Request> c = take(new LoadGenerator(workload(28), 40), 500);
        assertEquals(a, b);
        assertNotEquals(a, c);
        for (int i = 0; i < a.size(); i++) {
            assertEquals(i, a.get(i).index());
            assertTrue(i == 0 || a.get(i).arrivalNanos() >= a.get(i - 1).arrivalNanos());
        }
    }

    @Test
    void theRateOverManyArrivalsIsTheRateAsked() {
        // 100000 exponential gaps: the rate's relative standard error is 1/sqrt(n) = 0.32%; 1.5% is 4.7 of them.
        for (double rate : new double[] {0.5, 12.5, 400}) {
            int n = 100_000;
            List<Request> rs = take(new LoadGenerator(workload(7), rate), n);
            double seen = n / (rs.get(n - 1).arrivalNanos() / 1e9);
            assertEquals(rate, seen, 0.015 * rate, "rate " + rate);
        }
    }

    @Test
    void gapsAreExponential() {
        // P(gap > mean) = 1/e and P(gap > 3 mean) = e^-3 for a Poisson process; n = 100000 gives standard
        // errors 0.0015 and 0.0007, and the tolerances are five of them.
        double rate = 20;
        int n = 100_000;
        List<Request> rs = take(new LoadGenerator(workload(11), rate), n + 1);
        int overMean = 0;
        int overThree = 0;
        for (int i = 1; i <= n; i++) {
            double gap = (rs.get(i).arrivalNanos() - rs.get(i - 1).arrivalNanos()) / 1e9;
            overMean += gap > 1 / rate ? 1 : 0;
            overThree += gap > 3 / rate ? 1 : 0;
        }
        assertEquals(Math.exp(-1), overMean / (double) n, 0.0075);
        assertEquals(Math.exp(-3), overThree / (double) n, 0.0035);
    }

    @Test
    void everyRateServesTheSameRequestsOnAScaledClock() {
        List<Request> slow = take(new LoadGenerator(workload(3), 5), 1000);
        List<Request> fast = take(new LoadGenerator(workload(3), 80), 1000);
        for (int i = 0; i < slow.size(); i++) {
            assertEquals(slow.get(i).promptTokens(), fast.get(i).promptTokens());
            assertEquals(slow.get(i).outputTokens(), fast.get(i).outputTokens());
            assertEquals(slow.get(i).arrivalNanos() / 16.0, fast.get(i).arrivalNanos(), 1.0);
        }
    }

    @Test
    void lengthsStayInTheirRangesAndAreUniform() {
        List<Request> rs = take(new LoadGenerator(workload(5), 10), 50_000);
        int[] seen = new int[769];
        double sum = 0;
        for (Request r : rs) {
            assertTrue(r.promptTokens() >= 256 && r.promptTokens() <= 768, r.toString());
            assertTrue(r.outputTokens() >= 64 && r.outputTokens() <= 192, r.toString());
            seen[r.promptTokens()]++;
            sum += r.promptTokens();
        }
        assertTrue(seen[256] > 0 && seen[768] > 0, "both ends are drawn");
        // mean 512, standard deviation of a uniform 148.2, standard error 0.66: 4 is six of them
        assertEquals(512, sum / rs.size(), 4);
        Request fixed = new LoadGenerator(new Workload(LengthRange.fixed(1024), LengthRange.fixed(128), 1, 10, 0, 0), 1)
                .next();
        assertEquals(1024, fixed.promptTokens());
        assertEquals(128, fixed.outputTokens());
    }

    @Test
    void rangesParseAndBadOnesSayWhatIsAccepted() {
        assertEquals(new LengthRange(256, 768), LengthRange.parse("256..768"));
        assertEquals(LengthRange.fixed(512), LengthRange.parse(" 512 "));
        assertEquals("256..768", new LengthRange(256, 768).toString());
        for (String bad : new String[] {"0", "768..256", "abc", "", "5..", "1..2000000"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LengthRange.parse(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("MIN..MAX"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new LoadGenerator(workload(1), 0));
        assertThrows(IllegalArgumentException.class, () -> new LoadGenerator(workload(1), Double.NaN));
    }
}
