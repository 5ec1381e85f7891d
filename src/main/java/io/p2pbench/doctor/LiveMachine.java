package io.p2pbench.doctor;

import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.Nvml;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The machine this runs on: /proc and /sys from {@code /}, the GPUs through the suite's CUDA layer
 * ({@link TopologyProbe} for the GPU list, links and peer access; {@link Nvml#health} for BAR1,
 * persistence mode and NVLink errors). Without a driver the GPUs are a problem inside
 * {@link #gpus()}, not an exception, so the host findings still print.
 */
public final class LiveMachine implements MachineSource {
    private final RootedFiles files = new RootedFiles(Path.of("/"), false);
    private final String lspci;
    private final Topology probed;
    private GpuAnswers answers;

    /**
     * @param lspci {@code lspci -vvv} output captured as root, or null
     * @param probed a topology already probed in this process (the topology command's), or null to probe
     */
    public LiveMachine(String lspci, Topology probed) {
        this.lspci = lspci;
        this.probed = probed;
    }

    @Override
    public String description() {
        return "this machine";
    }

    @Override
    public String text(String path) throws Unreadable {
        return files.text(path);
    }

    @Override
    public byte[] bytes(String path) throws Unreadable {
        return files.bytes(path);
    }

    @Override
    public List<String> list(String dir) throws Unreadable {
        return files.list(dir);
    }

    @Override
    public String devicePath(String pciBusId) throws Unreadable {
        String link = "sys/bus/pci/devices/" + pciBusId;
        try {
            Path real = files.resolve(link).toRealPath();
            return files.root().relativize(real).toString();
        } catch (IOException e) {
            throw RootedFiles.unreadable(link, e);
        }
    }

    @Override
    public Optional<String> lspci() {
        return Optional.ofNullable(lspci);
    }

    /** Asks the driver once; later calls return the same answers. */
    @Override
    public synchronized GpuAnswers gpus() {
        if (answers == null) {
            answers = ask();
        }
        return answers;
    }

    private GpuAnswers ask() {
        Cuda.Availability cuda = Cuda.availability();
        if (!cuda.available()) {
            return GpuAnswers.unreadable(cuda.problem());
        }
        Topology t;
        try {
            t = probed != null ? probed : TopologyProbe.probe();
        } catch (RuntimeException | LinkageError e) {
            return GpuAnswers.unreadable(e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).lines()
                    .findFirst().orElse(""));
        }
        Nvml.Opened opened = Nvml.open();
        try {
            List<GpuAnswers.Gpu> gpus = new ArrayList<>();
            for (GpuInfo g : t.gpus()) {
                List<Integer> links = g.nvlinks().stream().map(GpuInfo.NvLinkInfo::link).toList();
                Nvml.Health h = opened.nvml().flatMap(n -> n.health(g.pciBusId(), links)).orElse(null);
                String why = opened.nvml().isEmpty() ? opened.problem() : "NVML does not know " + g.pciBusId();
                gpus.add(h == null
                        ? new GpuAnswers.Gpu(g, Answer.unknown(why), Answer.unknown(why), Answer.unknown(why))
                        : new GpuAnswers.Gpu(g, Answer.ofNullable(h.bar1TotalBytes(), h.bar1Problem()),
                                Answer.ofNullable(h.persistenceMode(), h.persistenceProblem()),
                                Answer.ofNullable(h.nvlinkErrors(), h.nvlinkErrorsProblem())));
            }
            return new GpuAnswers("", t.host().driverVersion(), gpus, t.pairs().stream().filter(p -> !p.self()).toList());
        } finally {
            opened.nvml().ifPresent(Nvml::close);
        }
    }
}
