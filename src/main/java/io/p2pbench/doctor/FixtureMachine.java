package io.p2pbench.doctor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A recorded machine: a folder laid out like the machine's root ({@code proc/cpuinfo},
 * {@code sys/devices/pci0000:00/0000:00:01.0/...}) with {@code gpus.json} (the driver's answers)
 * and optionally {@code lspci-vvv.txt}. sysfs links cannot be recorded portably, so
 * {@code sys/bus/pci/devices/BUSID} is served from the device folder of that name under
 * {@code sys/devices}, as the kernel's link would lead there. The folder is untrusted: paths stay
 * inside it, and a missing or malformed {@code gpus.json} is one line naming it.
 */
public final class FixtureMachine implements MachineSource {
    /** The driver's answers. */
    public static final String GPUS_FILE = "gpus.json";
    /** Optional {@code lspci -vvv} output captured as root. */
    public static final String LSPCI_FILE = "lspci-vvv.txt";
    private static final String BUS = "sys/bus/pci/devices";
    private static final int MAX_DEPTH = 32;

    private final Path dir;
    private final RootedFiles files;
    private final GpuAnswers gpus;
    private final String lspci;
    private final Map<String, String> devices;

    private FixtureMachine(Path dir, RootedFiles files, GpuAnswers gpus, String lspci, Map<String, String> devices) {
        this.dir = dir;
        this.files = files;
        this.gpus = gpus;
        this.lspci = lspci;
        this.devices = devices;
    }

    /** Opens a fixture folder; an {@link IOException} with one line naming what is wrong. */
    public static FixtureMachine open(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + " is not a folder; --machine takes a recorded machine folder with "
                    + GPUS_FILE + " (see docs/doctor.md)");
        }
        RootedFiles files = new RootedFiles(dir, true);
        if (!Files.isRegularFile(dir.resolve(GPUS_FILE))) {
            throw new IOException(dir + " has no " + GPUS_FILE + " (the driver's answers); see docs/doctor.md for "
                    + "the layout of a recorded machine");
        }
        GpuAnswers gpus;
        String lspci = null;
        try {
            gpus = FixtureGpus.parse(dir.resolve(GPUS_FILE).toString(), files.text(GPUS_FILE));
            if (Files.exists(dir.resolve(LSPCI_FILE))) {
                lspci = files.text(LSPCI_FILE);
            }
        } catch (Unreadable e) {
            throw new IOException(dir + ": " + e.getMessage());
        }
        return new FixtureMachine(dir, files, gpus, lspci, index(dir));
    }

    /** Bus id to its device folder under sys/devices; a bus id found twice is a malformed tree. */
    private static Map<String, String> index(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        Path base = dir.resolve("sys/devices");
        if (!Files.isDirectory(base)) {
            return out;
        }
        try (Stream<Path> walk = Files.walk(base, MAX_DEPTH)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String name = p.getFileName().toString();
                if (Files.isDirectory(p) && PciTree.BUS_ID.matcher(name).matches()) {
                    String relative = dir.relativize(p).toString().replace('\\', '/');
                    String before = out.put(name, relative);
                    if (before != null) {
                        throw new IOException(dir + ": device " + name + " appears twice under sys/devices (" + before
                                + " and " + relative + ")");
                    }
                }
                if (out.size() > RootedFiles.MAX_ENTRIES) {
                    throw new IOException(dir + ": more than " + RootedFiles.MAX_ENTRIES + " devices under sys/devices");
                }
            }
        } catch (UncheckedIOException e) {
            throw new IOException(dir + ": sys/devices cannot be read (" + e.getCause().getMessage() + ")");
        }
        return out;
    }

    /** {@code sys/bus/pci/devices/BUSID/rest} to the device folder's {@code rest}; other paths unchanged. */
    private String map(String path) throws Unreadable {
        if (!path.startsWith(BUS + "/")) {
            return path;
        }
        String rest = path.substring(BUS.length() + 1);
        int slash = rest.indexOf('/');
        String busId = slash < 0 ? rest : rest.substring(0, slash);
        String device = devices.get(busId);
        if (device == null) {
            throw new Unreadable(path, "does not exist", true);
        }
        return slash < 0 ? device : device + rest.substring(slash);
    }

    @Override
    public String description() {
        return "fixture " + dir;
    }

    @Override
    public String text(String path) throws Unreadable {
        return files.text(map(path));
    }

    @Override
    public byte[] bytes(String path) throws Unreadable {
        return files.bytes(map(path));
    }

    @Override
    public List<String> list(String dir) throws Unreadable {
        if (dir.equals(BUS)) {
            return new ArrayList<>(devices.keySet());
        }
        return files.list(map(dir));
    }

    @Override
    public String devicePath(String pciBusId) throws Unreadable {
        return map(BUS + "/" + pciBusId);
    }

    @Override
    public Optional<String> lspci() {
        return Optional.ofNullable(lspci);
    }

    @Override
    public GpuAnswers gpus() {
        return gpus;
    }
}
