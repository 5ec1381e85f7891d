package io.p2pbench.run;

import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.results.Outcome;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.spec.Skip;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * What became of one combination's fork, from the files it left (the fork's records, JMH's JSON and log):
 * its manifest entry; keeps the files that belong to the result and drops the rest.
 */
final class ForkOutcome {
    /**
     * What JMH's Runner says, and nothing else tells, when another JMH run holds its machine-wide lock: read here
     * alone, where a fork's error arrives, and carried on as the entry's {@link Outcome#INTERRUPTED}.
     */
    static final String JMH_LOCK_TAKEN = "Unable to acquire the JMH lock";
    /** The reason of the entry a fork stopped by JMH's lock leaves. */
    static final String JMH_LOCK_REASON = "another JMH run took JMH's lock";

    private final ResultFolder folder;

    ForkOutcome(ResultFolder folder) {
        this.folder = folder;
    }

    /**
     * One combination's files while its fork runs.
     *
     * @param stem {@code NNN-id}, the name of its JMH JSON and log
     * @param logRel its log, relative to the result folder
     * @param tmpJson where JMH writes its JSON
     * @param phaseFile where the fork marks its phases
     * @param suffix what the round adds to the stem and the samples file's name ({@link Round#suffix})
     */
    record ForkFiles(int index, Combination c, String stem, String logRel, Path tmpJson, Path phaseFile,
                     String suffix) {}

    /** Makes room for combination {@code index}'s files in {@code round}: a fresh JMH JSON, a phase file. */
    ForkFiles prepare(int index, Combination c, Round round) throws IOException {
        String suffix = round.suffix(c);
        String stem = String.format(Locale.ROOT, "%03d-%s", index + 1, c.id()) + suffix;
        String logRel = "logs/" + stem + ".log";
        Path tmpJson = folder.resolve("jmh/." + stem + ".json.partial");
        Files.createDirectories(tmpJson.getParent());
        Files.createDirectories(folder.resolve("logs"));
        Files.deleteIfExists(tmpJson);
        Path phaseFile = Files.createTempFile("p2pbench-phases-", ".txt");
        return new ForkFiles(index, c, stem, logRel, tmpJson, phaseFile, suffix);
    }

    /**
     * The entry of a combination whose fork (or turn in a fork group) ended; keeps or drops its files. Interrupted
     * only when another JMH run took JMH's lock ({@code runnerError}, JMH's words): the run must stop.
     */
    RunManifest.Entry conclude(ForkFiles f, boolean produced, String runnerError, boolean timedOut, double limit,
                               double seconds) throws IOException {
        BenchmarkRecords.Target target = new BenchmarkRecords.Target(folder.dir(), f.c().id());
        RunManifest.Entry e = outcome(f, target, produced, runnerError, timedOut, limit, seconds);
        // The fork's skip reason and verified count are now in the entry: their files would only repeat them.
        Files.deleteIfExists(target.skipFile());
        Files.deleteIfExists(target.verifiedFile());
        if (e.outcome() != Outcome.OK) {
            Files.deleteIfExists(target.samplesFile()); // a benchmark that did not finish ok keeps no figure
        }
        String keptLog = folder.storeLog(f.logRel(), e.outcome() != Outcome.OK);
        return new RunManifest.Entry(e.combination(), e.outcome(), e.reason(), e.jmhFile(), e.samplesFile(), keptLog,
                e.seconds(), e.headline(), e.bytesVerified(), null, null, e.skipCause());
    }

    /** What became of one fork, from the files it left; stores its JMH JSON when it is ok. */
    private RunManifest.Entry outcome(ForkFiles f, BenchmarkRecords.Target target, boolean produced, String runnerError,
                                      boolean timedOut, double limit, double seconds) throws IOException {
        Combination c = f.c();
        String logRel = f.logRel();
        Path tmpJson = f.tmpJson();
        if (Files.isRegularFile(target.skipFile())) {
            Files.deleteIfExists(tmpJson);
            Skip skip = BenchmarkRecords.readSkip(target.skipFile());
            return RunManifest.Entry.skipped(c, skip.cause(), skip.reason(), logRel, seconds);
        }
        if (timedOut) {
            Files.deleteIfExists(tmpJson);
            return new RunManifest.Entry(c, Outcome.TIMEOUT, "the fork did not finish within " + (long) limit
                    + " s and was killed", null, null, logRel, seconds, null);
        }
        if (!produced || !Files.isRegularFile(tmpJson) || Files.size(tmpJson) < 4) {
            Files.deleteIfExists(tmpJson);
            if (runnerError != null && runnerError.contains(JMH_LOCK_TAKEN)) {
                return new RunManifest.Entry(c, Outcome.INTERRUPTED, JMH_LOCK_REASON, null, null, logRel, seconds,
                        null);
            }
            String reason = ForkLog.firstError(folder.resolve(logRel));
            return new RunManifest.Entry(c, Outcome.FAILED, reason != null ? reason
                    : runnerError != null ? runnerError : "the fork produced no result; see " + logRel + ".gz", null,
                    null, logRel, seconds, null);
        }
        Long verified = BenchmarkRecords.readVerified(target.verifiedFile());
        if (verified == null || verified <= 0) {
            // No figure without verified data: a fork that checked nothing has no result, whatever JMH says.
            Files.deleteIfExists(tmpJson);
            return new RunManifest.Entry(c, Outcome.FAILED, verified == null
                    ? "the fork recorded no data verification (" + folder.dir().relativize(target.verifiedFile())
                    + " is missing); its figures are not kept"
                    : "the fork verified 0 bytes; its figures are not kept", null, null, logRel, seconds, null);
        }
        String headline = Kind.SERVING.label().equals(c.kind()) ? Headlines.serving(target) : Headlines.of(c, tmpJson);
        String jmhRel = folder.storeJmh(tmpJson, f.stem());
        String samplesRel = null;
        if (Files.isRegularFile(target.samplesFile())) {
            Path samples = target.samplesFile();
            if (!f.suffix().isEmpty()) {
                // The fork writes samples/ID.json.gz in every round: each round's moves to its own name at once.
                samples = samples.resolveSibling(c.id() + f.suffix() + ".json.gz");
                Files.move(samples.resolveSibling(c.id() + ".json.gz"), samples, StandardCopyOption.REPLACE_EXISTING);
            }
            samplesRel = folder.dir().relativize(samples).toString();
        }
        return new RunManifest.Entry(c, Outcome.OK, null, jmhRel, samplesRel, logRel, seconds, headline, verified);
    }
}
