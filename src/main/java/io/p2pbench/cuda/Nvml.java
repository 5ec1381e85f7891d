package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.nvml.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bytedeco.cuda.global.nvml;
import org.bytedeco.cuda.nvml.nvmlBAR1Memory_t;
import org.bytedeco.cuda.nvml.nvmlDevice_st;
import org.bytedeco.cuda.nvml.nvmlPciInfo_t;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.CLongPointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.Loader;

/**
 * NVML, for what the CUDA runtime does not tell: PCIe link generation and width, NVLink state and
 * peers, the PCI common ancestor of two GPUs, CPU affinity. Many of these answer NOT_SUPPORTED on
 * some systems (NVLink on a one-GPU VM, for one); such answers become {@code null} fields, never
 * errors. NVML ignores CUDA_VISIBLE_DEVICES, so GPUs are found by PCI bus id.
 */
public final class Nvml implements AutoCloseable {
    /** Remote device type NVML reports for an NVLink that ends at an NVSwitch. */
    public static final String REMOTE_SWITCH = "switch";
    /** Remote device type for an NVLink that ends at another GPU. */
    public static final String REMOTE_GPU = "gpu";

    private boolean open;

    private Nvml() {
        this.open = true;
    }

    /** Opens NVML, or says why it cannot be used. */
    public static Opened open() {
        try {
            Loader.load(nvml.class);
            int status = nvmlInit_v2();
            if (status != NVML_SUCCESS) {
                return new Opened(Optional.empty(), "nvmlInit failed: " + status + " " + errorString(status));
            }
            return new Opened(Optional.of(new Nvml()), "");
        } catch (Throwable t) {
            return new Opened(Optional.empty(), "NVML is not available: " + Cuda.describeLoadFailure(t));
        }
    }

    /** The result of {@link #open()}: the session, or the reason there is none. */
    public record Opened(Optional<Nvml> nvml, String problem) {}

    /** One NVLink of a GPU as NVML sees it. */
    public record NvLink(int link, boolean active, Integer version, String remotePciBusId, String remoteType) {}

    /** What NVML knows of one GPU; null where NVML answered NOT_SUPPORTED or failed. */
    public record GpuFacts(String uuid, String name, Integer pcieGenCurrent, Integer pcieGenMax,
                           Integer pcieWidthCurrent, Integer pcieWidthMax, Integer numaNode,
                           List<Integer> cpuAffinity, List<NvLink> nvlinks, String nvlinkProblem) {}

    /** The driver version string, e.g. 580.159.04. */
    public String driverVersion() {
        try (BytePointer text = new BytePointer(96)) {
            int status = nvmlSystemGetDriverVersion(text, 96);
            return status == NVML_SUCCESS ? Pointers.cString(text) : null;
        }
    }

    /** Facts about the GPU at {@code pciBusId} (any of NVML's or CUDA's spellings). */
    public Optional<GpuFacts> gpu(String pciBusId) {
        nvmlDevice_st dev = handle(pciBusId);
        if (dev == null) {
            return Optional.empty();
        }
        List<NvLink> links = new ArrayList<>();
        String linkProblem = null;
        for (int i = 0; i < NVML_NVLINK_MAX_LINKS; i++) {
            final int link = i;
            int[] state = {0};
            int status = nvmlDeviceGetNvLinkState(dev, link, state);
            if (status != NVML_SUCCESS) {
                if (link == 0) {
                    linkProblem = "nvmlDeviceGetNvLinkState: " + status + " " + errorString(status);
                }
                break;
            }
            boolean active = state[0] == NVML_FEATURE_ENABLED;
            Integer version = intOrNull(p -> nvmlDeviceGetNvLinkVersion(dev, link, p));
            String remoteBus = null;
            String remoteType = null;
            if (active) {
                nvmlPciInfo_t pci = new nvmlPciInfo_t();
                if (nvmlDeviceGetNvLinkRemotePciInfo_v2(dev, link, pci) == NVML_SUCCESS) {
                    remoteBus = PciBusId.normalize(Pointers.cString(pci.busId()));
                }
                pci.close();
                Integer type = intOrNull(p -> nvmlDeviceGetNvLinkRemoteDeviceType(dev, link, p));
                remoteType = type == null ? null : type == 2 ? REMOTE_SWITCH : type == 0 ? REMOTE_GPU : "other";
            }
            links.add(new NvLink(link, active, version, remoteBus, remoteType));
        }
        return Optional.of(new GpuFacts(
                string(dev, 96, (d, b) -> nvmlDeviceGetUUID(d, b, 96)),
                string(dev, 96, (d, b) -> nvmlDeviceGetName(d, b, 96)),
                intOrNull(p -> nvmlDeviceGetCurrPcieLinkGeneration(dev, p)),
                intOrNull(p -> nvmlDeviceGetMaxPcieLinkGeneration(dev, p)),
                intOrNull(p -> nvmlDeviceGetCurrPcieLinkWidth(dev, p)),
                intOrNull(p -> nvmlDeviceGetMaxPcieLinkWidth(dev, p)),
                intOrNull(p -> nvmlDeviceGetNumaNodeId(dev, p)),
                cpuAffinity(dev),
                links, linkProblem));
    }

    /** One NVLink's error counters since the driver loaded (NVML_NVLINK_ERROR_DL_*). */
    public record NvLinkErrors(int link, long replay, long recovery, long crcFlit, long crcData) {}

    /**
     * What {@code p2pbench doctor} asks beyond {@link GpuFacts}: the BAR1 aperture (through which a
     * peer maps this GPU's memory over PCIe), persistence mode, and the error counters of the given
     * NVLinks. A null field comes with the NVML call and status that left it unknown.
     */
    public record Health(Long bar1TotalBytes, String bar1Problem, Boolean persistenceMode, String persistenceProblem,
                         List<NvLinkErrors> nvlinkErrors, String nvlinkErrorsProblem) {}

    /** {@link Health} of the GPU at {@code pciBusId}, reading the error counters of {@code links}. */
    public Optional<Health> health(String pciBusId, List<Integer> links) {
        nvmlDevice_st dev = handle(pciBusId);
        if (dev == null) {
            return Optional.empty();
        }
        Long bar1 = null;
        String bar1Problem = null;
        try (nvmlBAR1Memory_t memory = new nvmlBAR1Memory_t()) {
            int status = nvmlDeviceGetBAR1MemoryInfo(dev, memory);
            if (status == NVML_SUCCESS) {
                bar1 = memory.bar1Total();
            } else {
                bar1Problem = "nvmlDeviceGetBAR1MemoryInfo: " + status + " " + errorString(status);
            }
        }
        int[] mode = {0};
        int modeStatus = nvmlDeviceGetPersistenceMode(dev, mode);
        Boolean persistence = modeStatus == NVML_SUCCESS ? mode[0] == NVML_FEATURE_ENABLED : null;
        String persistenceProblem = modeStatus == NVML_SUCCESS ? null
                : "nvmlDeviceGetPersistenceMode: " + modeStatus + " " + errorString(modeStatus);
        List<NvLinkErrors> errors = new ArrayList<>();
        String errorsProblem = null;
        for (int link : links) {
            long[] c = new long[4];
            int[] counters = {NVML_NVLINK_ERROR_DL_REPLAY, NVML_NVLINK_ERROR_DL_RECOVERY, NVML_NVLINK_ERROR_DL_CRC_FLIT,
                NVML_NVLINK_ERROR_DL_CRC_DATA};
            for (int i = 0; i < counters.length && errorsProblem == null; i++) {
                long[] value = {0};
                int status = nvmlDeviceGetNvLinkErrorCounter(dev, link, counters[i], value);
                if (status != NVML_SUCCESS) {
                    errorsProblem = "nvmlDeviceGetNvLinkErrorCounter(link=" + link + "): " + status + " "
                            + errorString(status);
                }
                c[i] = value[0];
            }
            if (errorsProblem != null) {
                errors.clear();
                break;
            }
            errors.add(new NvLinkErrors(link, c[0], c[1], c[2], c[3]));
        }
        return Optional.of(new Health(bar1, bar1Problem, persistence, persistenceProblem,
                errorsProblem == null ? errors : null, errorsProblem));
    }

    /**
     * NVML's topology level between two GPUs (NVML_TOPOLOGY_INTERNAL 0, SINGLE 10, MULTIPLE 20,
     * HOSTBRIDGE 30, NODE 40, SYSTEM 50), or null when it cannot say.
     */
    public Integer commonAncestor(String pciBusIdA, String pciBusIdB) {
        nvmlDevice_st a = handle(pciBusIdA);
        nvmlDevice_st b = handle(pciBusIdB);
        if (a == null || b == null) {
            return null;
        }
        return intOrNull(p -> nvmlDeviceGetTopologyCommonAncestor(a, b, p));
    }

    private nvmlDevice_st handle(String pciBusId) {
        nvmlDevice_st dev = new nvmlDevice_st();
        String nvmlForm = PciBusId.nvmlForm(pciBusId);
        return nvmlDeviceGetHandleByPciBusId_v2(new BytePointer(nvmlForm), dev) == NVML_SUCCESS ? dev : null;
    }

    private static List<Integer> cpuAffinity(nvmlDevice_st dev) {
        int longs = 16; // 1024 CPUs
        try (CLongPointer mask = new CLongPointer(longs)) {
            if (nvmlDeviceGetCpuAffinity(dev, longs, mask) != NVML_SUCCESS) {
                return null;
            }
            List<Integer> cpus = new ArrayList<>();
            for (int i = 0; i < longs; i++) {
                long bits = mask.get(i);
                for (int b = 0; b < 64; b++) {
                    if ((bits & (1L << b)) != 0) {
                        cpus.add(i * 64 + b);
                    }
                }
            }
            return cpus;
        }
    }

    private interface IntQuery {
        int call(IntPointer out);
    }

    private interface StringQuery {
        int call(nvmlDevice_st dev, BytePointer out);
    }

    private static Integer intOrNull(IntQuery q) {
        try (IntPointer p = new IntPointer(1)) {
            return q.call(p) == NVML_SUCCESS ? p.get() : null;
        }
    }

    private static String string(nvmlDevice_st dev, int size, StringQuery q) {
        try (BytePointer b = new BytePointer(size)) {
            return q.call(dev, b) == NVML_SUCCESS ? Pointers.cString(b) : null;
        }
    }

    private static String errorString(int status) {
        BytePointer p = nvmlErrorString(status);
        return p == null ? "" : p.getString();
    }

    @Override
    public void close() {
        if (open) {
            open = false;
            int status = nvmlShutdown();
            if (status != NVML_SUCCESS) {
                throw new CudaException(CudaException.Api.NVML, "nvmlShutdown", "", status, "NVML_ERROR_" + status, errorString(status));
            }
        }
    }
}
