package io.p2pbench.report.read;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.cuda.Binding;
import io.p2pbench.files.FileProblem;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.results.Outcome;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.ResultMigration;
import io.p2pbench.results.RunManifest;
import io.p2pbench.spec.Exchange;
import io.p2pbench.spec.HostCopy;
import io.p2pbench.spec.HostCopyBidirectional;
import io.p2pbench.spec.NcclOp;
import io.p2pbench.spec.PartitionRun;
import io.p2pbench.spec.PeerCopy;
import io.p2pbench.spec.PeerCopyBidirectional;
import io.p2pbench.spec.Ring;
import io.p2pbench.spec.SecondaryMetric;
import io.p2pbench.spec.Serving;
import io.p2pbench.spec.WorkloadSpec;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyProbe;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.NumaPlacement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The read step: turns a result folder ({@code docs/results-format.md}) into {@link Measurement}s.
 * Bandwidth samples are the per-batch figures of {@code samples/ID.json.gz} ({@code .json} in format 1; JMH's per-iteration
 * secondary metrics where a run has no samples file); latency samples are JMH SampleTime's
 * histogram, expanded. Kinds this version does not know are counted, not read.
 */
public final class ResultReader {
    /** Collective kinds: bus and algorithm bandwidth come from JMH secondary metrics, latency from SampleTime. */
    public static final Set<String> COLLECTIVE_KINDS = Set.of(Kind.ALLREDUCE_RING.label(), Kind.NCCL.label(), Kind.EXCHANGE.label());
    /** Direction of a collective's latency: host-observed time of one operation. */
    public static final String PER_OPERATION = "per operation";
    /** Direction of a copy measured alone. */
    public static final String ONE_WAY = "one-way";
    /** Direction of one lane of a bidirectional copy, measured while the other direction runs. */
    public static final String UNDER_REVERSE = "one-way, reverse running";
    /** The first of two concurrent copies within one GPU (a bidirectional copy of a pair {@code N-N}). */
    public static final String SELF_LANE_1 = "concurrent copy 1 of 2";
    /** The second of two concurrent copies within one GPU. */
    public static final String SELF_LANE_2 = "concurrent copy 2 of 2";
    /** Both lanes of a bidirectional copy added up. */
    public static final String BOTH_WAYS = "both ways (sum)";

    private ResultReader() {}

    /** Reads a result folder; a one-line {@link BadInputException} for anything unusable. */
    public static ResultData read(Path dir) throws BadInputException {
        requireResultFolder(dir);
        ResultFolder folder = ResultFolder.open(dir);
        RunManifest manifest;
        Topology topology;
        try {
            manifest = folder.readManifest();
            checkSuiteVersion(dir, manifest);
            topology = folder.readTopology();
        } catch (BadInputException e) {
            throw e;
        } catch (IOException e) {
            throw new BadInputException(FileProblem.of(e));
        }
        if (manifest.entries() == null) {
            throw new BadInputException(dir.resolve("manifest.json") + " lists no entries");
        }
        String machine = manifest.fingerprint() != null ? manifest.fingerprint() : topology.fingerprint();
        List<RunEntry> entries = new ArrayList<>();
        List<Measurement> measurements = new ArrayList<>();
        List<ResultData.NotMeasured> notMeasured = new ArrayList<>();
        Map<String, Integer> unknown = new TreeMap<>();
        Set<String> ids = new HashSet<>();
        for (RunManifest.Entry e : manifest.entries()) {
            Combination c = e.combination();
            if (c == null || c.kind() == null || c.metric() == null || c.params() == null) {
                throw new BadInputException(dir.resolve("manifest.json") + " has an entry without a combination");
            }
            if (!ids.add(c.id())) {
                // A run plans each combination once: a second entry of one id would count its figure twice.
                throw new BadInputException(dir.resolve("manifest.json") + " lists combination " + c.id()
                        + " twice; a run lists each combination once");
            }
            RunEntry typed = RunEntries.of(dir, e);
            requireLocalGpus(dir, c, e, typed.spec(), topology);
            entries.add(typed);
            if (e.outcome() != Outcome.OK) {
                notMeasured.add(ResultData.NotMeasured.of(c.id(), e.outcome(), e.reason(), c.singleGpu()));
            } else if (isKnown(c.kind())) {
                // Reads (and so checks) the entry's JMH file: a truncated jmh/*.json(.gz) is one line here.
                measurements.addAll(readRounds(folder, e, typed.spec(), machine));
            } else {
                if (!Kind.PARTITION.label().equals(c.kind()) && !Kind.SERVING.label().equals(c.kind())) {
                    // Partition and serving figures are read by PartitionVerdict and ServingResults, not here.
                    unknown.merge(c.kind(), 1, Integer::sum);
                }
                if (!RunManifest.FORMAT_1.equals(manifest.format()) && e.jmhFile() != null) {
                    // Format 2 exports every ok entry's JMH file, kinds this version does not read included.
                    requireJmhArray(folder.resolve(e.jmhFile()));
                }
            }
        }
        Path jmhResults = RunManifest.FORMAT_1.equals(manifest.format())
                ? checkedJmhResults(dir.resolve("jmh-results.json")) : null;
        return new ResultData(dir, machine + "/" + dir.getFileName(), machine,
                "p2pbench " + manifest.suiteVersion() + (manifest.suiteBuild() == null ? "" : " (" + manifest.suiteBuild() + ")"),
                topology, manifest, List.copyOf(entries), List.copyOf(measurements),
                List.copyOf(notMeasured), Collections.unmodifiableMap(unknown), jmhResults, ResultData.Tool.P2PBENCH,
                null, hostSeconds(dir.resolve(ResultMigration.PHASES)));
    }

    /**
     * A copy's GPUs (a peer copy's pair, a host copy's device) are GPUs of the run's machine as its topology.json
     * lists them; a crafted "0-99" was reported as a pair of a one-GPU machine. Entries of a job of several processes
     * ({@code placement}) name their ranks' GPUs and are left to the job's own checks.
     */
    private static void requireLocalGpus(Path dir, Combination c, RunManifest.Entry e, WorkloadSpec spec,
                                         Topology topology) throws BadInputException {
        if (e.placement() != null || spec == null) {
            return; // spec null: a kind this version does not read
        }
        List<Integer> gpus = new ArrayList<>();
        spec.peerRoute().ifPresent(r -> gpus.addAll(List.of(r.pair().src(), r.pair().dst())));
        spec.hostBuffer().ifPresent(h -> gpus.add(h.device()));
        int n = topology.gpuCount();
        for (int g : gpus) {
            if (g < 0 || g >= n) {
                throw new BadInputException(dir.resolve("manifest.json") + ": entry " + c.id() + " names GPU " + g
                        + ", but the run's machine (topology.json) has GPUs 0 to " + (n - 1));
            }
        }
    }

    /** The phases of {@code phases.json} whose sum is a run's host CPU work ({@link ResultData#hostSeconds}). */
    static final List<String> HOST_PHASES = List.of("launch", "jvm", "exit");

    /**
     * A run's JVM starts and exits in seconds from its {@code phases.json} ({@code total}: {@link #HOST_PHASES}), or
     * NaN where the file is missing, is not JSON or a phase is not a number of 0 to 10^6 seconds: the figure only
     * says whether two runs' hosts worked alike, and a run without it is read as before. A link out of the folder was
     * refused with the manifest ({@code ManifestPaths.checkOwnFiles}).
     */
    static double hostSeconds(Path phases) {
        if (!Files.isRegularFile(phases)) {
            return Double.NaN;
        }
        JsonNode total;
        try {
            total = ResultFolder.mapper().readTree(phases.toFile()).path("total");
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        double sum = 0;
        for (String phase : HOST_PHASES) {
            JsonNode v = total.path(phase);
            if (!v.isNumber() || !(v.asDouble() >= 0 && v.asDouble() <= 1e6)) {
                return Double.NaN;
            }
            sum += v.asDouble();
        }
        return sum > 0 ? sum : Double.NaN;
    }

    /**
     * Format 1's jmh-results.json when it is a whole JSON array (it is copied into the export
     * unchanged, so a truncated one must not pass), null when there is none. Format 2 has no merged
     * file: the export merges the per-benchmark {@code jmh/*.json.gz}, each checked as it is read.
     */
    private static Path checkedJmhResults(Path file) throws BadInputException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        requireJmhArray(file);
        return file;
    }

    /** A JMH JSON file (gzipped when named {@code .gz}) that parses whole, as an array; else one line. */
    private static void requireJmhArray(Path file) throws BadInputException {
        if (!JmhJson.parse(file, "JMH JSON").isArray()) {
            throw new BadInputException(file + " is not JMH JSON (expected an array of results)");
        }
    }

    /** Whether this version reports the kind here (the partition study has its own reader). */
    static boolean isKnown(String kind) {
        Kind k = Kind.find(kind);
        return k != null && k != Kind.PARTITION && k != Kind.SERVING;
    }

    private static void requireResultFolder(Path dir) throws BadInputException {
        String cannot = FileProblem.unreachable(dir);
        if (cannot != null) {
            throw new BadInputException(dir + " cannot be read: " + cannot);
        }
        if (!Files.exists(dir)) {
            throw new BadInputException(dir + " does not exist");
        }
        if (!Files.isDirectory(dir)) {
            throw new BadInputException(dir + " is a file, not a p2pbench result folder");
        }
        // One it may not look at is left to ResultFolder.readManifest, which says so ("cannot be read").
        Path manifest = dir.resolve("manifest.json");
        if (FileProblem.unreachable(manifest) == null && !Files.exists(manifest)) {
            String hint;
            try (Stream<Path> found = Files.find(dir, 3, (p, a) -> p.getFileName().toString().equals("manifest.json"))) {
                hint = found.findFirst().map(p -> "; it holds result folders, e.g. " + p.getParent()).orElse("");
            } catch (IOException unreadable) {
                hint = "";
            }
            throw new BadInputException(dir + " is not a p2pbench result folder (no manifest.json)" + hint);
        }
    }

    private static void checkSuiteVersion(Path dir, RunManifest m) throws BadInputException {
        String theirs = m.suiteVersion() == null ? "?" : m.suiteVersion();
        String ours = TopologyProbe.SUITE_VERSION;
        if (!major(theirs).equals(major(ours))) {
            throw new BadInputException(dir + " holds results of p2pbench " + theirs + "; this p2pbench " + ours
                    + " reads results of suite version " + major(ours) + ".x (formats " + RunManifest.FORMAT_1 + ", "
                    + RunManifest.FORMAT + ")");
        }
    }

    private static String major(String version) {
        int dot = version.indexOf('.');
        return dot > 0 ? version.substring(0, dot) : version;
    }

    /**
     * The figures of one ok entry: of its one round, or of each of its rounds joined row by row ({@link
     * Measurement#rounds()}: each round's samples apart, the samples of all rounds together).
     */
    private static List<Measurement> readRounds(ResultFolder folder, RunManifest.Entry e, WorkloadSpec spec,
                                                String machine) throws BadInputException {
        if (e.rounds() == null) {
            return new EntryReader(folder, e.combination(), spec, e.jmhFile(), e.samplesFile(), machine).read();
        }
        if (e.rounds().isEmpty()) {
            throw new BadInputException(folder.resolve("manifest.json") + ": entry " + e.combination().id()
                    + " is ok but lists no rounds");
        }
        List<List<Measurement>> rounds = new ArrayList<>();
        for (RunManifest.RoundResult r : e.rounds()) {
            if (r.outcome() != Outcome.OK) {
                throw new BadInputException(folder.resolve("manifest.json") + ": entry " + e.combination().id()
                        + " is ok but a round of it is " + r.status());
            }
            rounds.add(new EntryReader(folder, e.combination(), spec, r.jmhFile(), r.samplesFile(), machine).read());
        }
        List<Measurement> joined = new ArrayList<>();
        for (int j = 0; j < rounds.get(0).size(); j++) {
            List<Measurement> row = new ArrayList<>();
            for (List<Measurement> round : rounds) {
                if (round.size() != rounds.get(0).size() || !round.get(j).key().equals(rounds.get(0).get(j).key())) {
                    throw new BadInputException(folder.resolve("manifest.json") + ": the rounds of entry "
                            + e.combination().id() + " do not hold the same figures");
                }
                row.add(round.get(j));
            }
            joined.add(Measurement.ofRounds(row));
        }
        return joined;
    }

    /** Reads the figures of one ok entry (one round of it). */
    private static final class EntryReader {
        private final ResultFolder folder;
        private final Combination c;
        private final WorkloadSpec spec;
        private final String jmhFile;
        private final String samplesFile;
        private final String machine;

        EntryReader(ResultFolder folder, Combination c, WorkloadSpec spec, String jmhFile, String samplesFile,
                    String machine) {
            this.folder = folder;
            this.c = c;
            this.spec = spec;
            this.jmhFile = jmhFile;
            this.samplesFile = samplesFile;
            this.machine = machine;
        }

        List<Measurement> read() throws BadInputException {
            if (jmhFile == null) {
                throw new BadInputException(folder.resolve("manifest.json") + ": entry " + c.id()
                        + " is ok but names no JMH file");
            }
            JmhJson jmh = JmhJson.read(folder.resolve(jmhFile));
            // Rows of both directions at once report under the one-way kind, with the direction saying which.
            String peer = Kind.PEER.label();
            String host = Kind.HOST.label();
            boolean latency = c.metric().equals(Measurement.LATENCY);
            return spec.accept(new WorkloadSpec.Cases<Figures>() {
                @Override
                public Figures peerCopy(PeerCopy s) {
                    String path = s.path().name();
                    Route route = copyRoute(s.path());
                    Endpoints.Pair ends = new Endpoints.Pair(s.pair());
                    return () -> List.of(latency ? latency(peer, viaBinding(path, s.binding()), route, Lane.ONE_WAY, ends, jmh)
                            : bandwidth(peer, path, route, Lane.ONE_WAY, ends, lane(jmh, 0, SecondaryMetric.DEVICE_GBPS)));
                }

                @Override
                public Figures peerCopyBidirectional(PeerCopyBidirectional s) {
                    return () -> peerBidirectional(s, jmh);
                }

                @Override
                public Figures hostCopy(HostCopy s) {
                    String path = hostPath(s.memory(), s.numa());
                    Route route = Route.host(s.memory());
                    Endpoints gpu = new Endpoints.Host(s.device());
                    Lane way = Lane.of(s.direction());
                    return () -> List.of(latency ? latency(host, viaBinding(path, s.binding()), route, way, gpu, jmh)
                            : bandwidth(host, path, route, way, gpu, lane(jmh, 0, SecondaryMetric.DEVICE_GBPS)));
                }

                @Override
                public Figures hostCopyBidirectional(HostCopyBidirectional s) {
                    String path = hostPath(s.memory(), s.numa());
                    Route route = Route.host(s.memory());
                    Endpoints gpu = new Endpoints.Host(s.device());
                    return () -> List.of(
                            bandwidth(host, path, route, Lane.H2D_UNDER_D2H, gpu, lane(jmh, 0, SecondaryMetric.FORWARD_GBPS)),
                            bandwidth(host, path, route, Lane.D2H_UNDER_H2D, gpu, lane(jmh, 1, SecondaryMetric.REVERSE_GBPS)),
                            bandwidth(host, path, route, Lane.HOST_BOTH_WAYS, gpu, sum(jmh)));
                }

                @Override
                public Figures ring(Ring s) {
                    return () -> collective("ALL_REDUCE " + s.dtype() + " ring over " + s.path(), Route.collective(
                            BusBandwidth.Operation.ALL_REDUCE, String.valueOf(s.dtype()), staged(s.path())), s.group(), jmh);
                }

                @Override
                public Figures ncclOp(NcclOp s) {
                    return () -> collective(s.operation() + " " + s.dtype(),
                            Route.collective(s.operation(), String.valueOf(s.dtype()), false), s.group(), jmh);
                }

                @Override
                public Figures exchange(Exchange s) {
                    return () -> collective(s.pattern() + " " + s.model() + " over " + s.path(),
                            Route.exchange(s.pattern(), staged(s.path())), s.group(), jmh);
                }

                @Override
                public Figures partitionRun(PartitionRun s) {
                    return ownSection();
                }

                @Override
                public Figures serving(Serving s) {
                    return ownSection();
                }
            }).read();
        }

        /** The figures of one row, read when called (reading may fail on bad input). */
        private interface Figures {
            List<Measurement> read() throws BadInputException;
        }

        /** The partition study and serving sweeps are read by their own sections. */
        private Figures ownSection() {
            return () -> {
                throw new BadInputException(folder.resolve("manifest.json") + ": entry " + c.id() + " of kind "
                        + c.kind() + " is read by its own section, not here");
            };
        }

        /**
         * The path, named with the Java binding when the row is the JCuda twin of a JavaCPP row
         * (rows without a binding parameter are JavaCPP's, as every result before it was recorded).
         */
        private static String viaBinding(String path, Binding binding) {
            return binding == Binding.JAVACPP_RUNTIME ? path : path + " via " + binding.label();
        }

        private static Route copyRoute(CopyPath path) {
            return Route.copy(path);
        }

        private static boolean staged(CollectivePath path) {
            return path == CollectivePath.HOST_STAGED;
        }

        private List<Measurement> peerBidirectional(PeerCopyBidirectional s, JmhJson jmh) throws BadInputException {
            GpuPair pair = s.pair();
            String path = s.path().name();
            Route route = copyRoute(s.path());
            Lane first = pair.sameGpu() ? Lane.SELF_LANE_1 : Lane.UNDER_REVERSE;
            Lane second = pair.sameGpu() ? Lane.SELF_LANE_2 : Lane.UNDER_REVERSE;
            Endpoints.Pair ends = new Endpoints.Pair(pair);
            String peer = Kind.PEER.label();
            return List.of(
                    bandwidth(peer, path, route, first, ends, lane(jmh, 0, SecondaryMetric.FORWARD_GBPS)),
                    bandwidth(peer, path, route, second, new Endpoints.Pair(pair.reversed()),
                            lane(jmh, 1, SecondaryMetric.REVERSE_GBPS)),
                    bandwidth(peer, path, route, Lane.BOTH_WAYS, ends.unordered(), sum(jmh)));
        }

        private List<Measurement> collective(String path, Route route, Group g, JmhJson jmh) throws BadInputException {
            Endpoints.Ranks group = Endpoints.Ranks.ofGpus(g.devices());
            if (c.metric().equals(Measurement.LATENCY)) {
                return List.of(measurement(new Measurement.Key(Measurement.LATENCY, c.kind(), path, route,
                        Lane.PER_OPERATION, group, c.sizeBytes()), jmh.histogramMicros(), "JMH SampleTime histogram"));
            }
            List<Measurement> out = new ArrayList<>();
            BatchSamples batches = samples();
            boolean paced = batches != null && batches.batches().stream().anyMatch(b -> !b.gated());
            for (Lane direction : List.of(Lane.BUS, Lane.ALG)) {
                String secondary = direction == Lane.ALG ? SecondaryMetric.ALG_GBPS : SecondaryMetric.BUS_GBPS;
                if (jmh.hasSecondary(secondary)) {
                    LaneSamples lane = lane(batches, jmh, direction == Lane.ALG ? 0 : 1, secondary);
                    out.add(measurement(new Measurement.Key(Measurement.BANDWIDTH, c.kind(), path, route, direction,
                            group, c.sizeBytes()), lane.samples, lane.from).withHostPaced(paced));
                }
            }
            return out;
        }

        /** A collective's figure; its link is the size of its group (the planner records "group"). */
        private Measurement measurement(Measurement.Key key, double[] samples, String from) {
            int ranks = ((Endpoints.Ranks) key.ends()).size();
            return new Measurement(key, machine, "group of " + ranks, c.singleGpu(), c.group(), c.id(), samples, from);
        }

        private Measurement bandwidth(String kind, String path, Route route, Lane direction, Endpoints ends,
                                      LaneSamples lane) {
            Measurement.Key key = new Measurement.Key(Measurement.BANDWIDTH, kind, path, route, direction, ends,
                    c.sizeBytes());
            return new Measurement(key, machine, c.link(), c.singleGpu(), c.group(), c.id(), lane.samples, lane.from);
        }

        private Measurement latency(String kind, String path, Route route, Lane direction, Endpoints ends, JmhJson jmh)
                throws BadInputException {
            Measurement.Key key = new Measurement.Key(Measurement.LATENCY, kind, path, route, direction, ends,
                    c.sizeBytes());
            return new Measurement(key, machine, c.link(), c.singleGpu(), c.group(), c.id(), jmh.histogramMicros(),
                    "JMH SampleTime histogram");
        }

        /** Per-batch figures of one lane from the samples file, else JMH's per-iteration secondary metric. */
        private LaneSamples lane(JmhJson jmh, int lane, String secondary) throws BadInputException {
            return lane(samples(), jmh, lane, secondary);
        }

        /** The same from samples already read ({@code s}, null where there is no samples file). */
        private LaneSamples lane(BatchSamples s, JmhJson jmh, int lane, String secondary) throws BadInputException {
            if (s == null) {
                return new LaneSamples(jmh.secondary(secondary), "JMH " + secondary + " (no per-batch samples)");
            }
            double[] out = new double[s.batches().size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = s.batches().get(i).laneGBps().get(lane);
            }
            return new LaneSamples(out, "per-batch samples");
        }

        /**
         * Per batch, both directions together: all bytes over the common window where the batch records
         * it; results written before it was recorded added up the lanes' own-window figures, and say so.
         */
        private LaneSamples sum(JmhJson jmh) throws BadInputException {
            BatchSamples s = samples();
            if (s == null) {
                return new LaneSamples(jmh.secondary(SecondaryMetric.SUM_GBPS), "JMH " + SecondaryMetric.SUM_GBPS
                        + " (no per-batch samples)");
            }
            double[] out = new double[s.batches().size()];
            boolean window = true;
            for (int i = 0; i < out.length; i++) {
                BatchSamples.Batch b = s.batches().get(i);
                window &= b.windowGBps() != null;
                out[i] = b.windowGBps() != null ? b.windowGBps() : b.laneGBps().get(0) + b.laneGBps().get(1);
            }
            // Older results keep their label (and their figures' digest): their sum is the lanes' figures added.
            return new LaneSamples(out, window ? "per-batch samples, all bytes over the common window" : "per-batch samples");
        }

        private BatchSamples samples() throws BadInputException {
            if (samplesFile == null) {
                return null;
            }
            Path file = folder.resolve(samplesFile);
            BatchSamples s;
            try {
                s = BenchmarkRecords.readSamples(file);
            } catch (JacksonException e) {
                throw new BadInputException(file + " is not readable samples JSON: " + FileProblem.of(e));
            } catch (AtomicFiles.Refused e) {
                throw new BadInputException(e.getMessage());
            } catch (AtomicFiles.BadGzip e) {
                throw new BadInputException(file + " is not readable samples JSON: it " + e.reason());
            } catch (IOException e) {
                throw new BadInputException(file + " cannot be read: " + FileProblem.why(e));
            }
            // Collectives write two lanes per batch (algbw, busbw); bidirectional copies one per direction.
            Kind kind = Kind.find(c.kind());
            boolean collective = kind == null
                    || !EnumSet.of(Kind.PEER, Kind.PEER_BIDIR, Kind.HOST, Kind.HOST_BIDIR).contains(kind);
            int lanes = kind == Kind.PEER_BIDIR || kind == Kind.HOST_BIDIR || collective ? 2 : 1;
            if (s == null || s.batches() == null || s.batches().isEmpty() || s.batches().stream()
                    .anyMatch(b -> b == null || b.laneGBps() == null || b.laneGBps().size() != lanes)) {
                throw new BadInputException(file + " does not hold " + lanes + "-lane batches for " + c.id());
            }
            for (int i = 0; i < s.batches().size(); i++) {
                BatchSamples.Batch b = s.batches().get(i);
                if (Stream.concat(b.laneGBps().stream(), Stream.ofNullable(b.windowGBps()))
                        .anyMatch(g -> !Measurement.isBandwidth(g))) {
                    throw new BadInputException(file + ": batches[" + i + "] " + b + " holds no bandwidth; expected "
                            + "0, or " + Measurement.MIN_POSITIVE_GBPS_TEXT + " to " + (long) Measurement.MAX_GBPS
                            + " GB/s");
                }
            }
            return s;
        }

        private static String hostPath(HostMemory memory, NumaPlacement numa) {
            return memory + " " + numa;
        }
    }

    /** Samples of one lane and where they come from. */
    private record LaneSamples(double[] samples, String from) {}
}
