package io.p2pbench.cuda;

import java.util.ArrayList;
import java.util.List;
import jcuda.driver.CUdevice;
import jcuda.driver.JCudaDriver;

/**
 * The second binding, JCuda (driver API only): an independent read of the GPUs' PCI bus ids, so
 * the topology can say whether two bindings agree on which GPU is which. A mismatch points at a
 * loader problem (two different libcuda.so.1 on one machine, say) before any figure is trusted.
 */
public final class JCudaDriverView {
    private JCudaDriverView() {}

    /** PCI bus ids of the visible GPUs in driver order, or a one-line reason in {@link View#problem()}. */
    public static View read() {
        try {
            JCudaDriver.setExceptionsEnabled(false);
            int status = JCudaDriver.cuInit(0);
            if (status != 0) {
                return new View(List.of(), "JCuda cuInit failed: " + status);
            }
            int[] count = {0};
            status = JCudaDriver.cuDeviceGetCount(count);
            if (status != 0) {
                return new View(List.of(), "JCuda cuDeviceGetCount failed: " + status);
            }
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < count[0]; i++) {
                CUdevice dev = new CUdevice();
                status = JCudaDriver.cuDeviceGet(dev, i);
                String[] id = {""};
                if (status == 0) {
                    status = JCudaDriver.cuDeviceGetPCIBusId(id, 64, dev);
                }
                if (status != 0) {
                    return new View(List.of(), "JCuda could not read GPU " + i + "'s PCI bus id: " + status);
                }
                ids.add(PciBusId.normalize(id[0]));
            }
            int[] version = {0};
            status = JCudaDriver.cuDriverGetVersion(version);
            if (status != 0) {
                return new View(ids, "JCuda cuDriverGetVersion failed: " + status);
            }
            return new View(ids, "", version[0]);
        } catch (Throwable t) {
            return new View(List.of(), "JCuda is not usable: " + Cuda.describeLoadFailure(t));
        }
    }

    /** The driver's view through JCuda. */
    public record View(List<String> pciBusIds, String problem, int driverVersion) {
        View(List<String> pciBusIds, String problem) {
            this(pciBusIds, problem, 0);
        }
    }
}
