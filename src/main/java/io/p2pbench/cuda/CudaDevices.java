package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import java.util.HexFormat;
import org.bytedeco.cuda.cudart.CUuuid;
import org.bytedeco.cuda.cudart.cudaDeviceProp;
import org.bytedeco.javacpp.BytePointer;

/** What the CUDA runtime reports about one visible GPU. */
public final class CudaDevices {
    private CudaDevices() {}

    /** Runtime properties of one GPU (index as CUDA numbers it, after CUDA_VISIBLE_DEVICES). */
    public record Properties(int index, String name, String uuid, String pciBusId, int ccMajor, int ccMinor,
                             long totalMemoryBytes, int smCount, int copyEngines, int l2CacheBytes,
                             int numaId, boolean unifiedAddressing) {}

    /** Queries GPU {@code index}. */
    public static Properties describe(int index) {
        Cuda.require();
        cudaDeviceProp prop = new cudaDeviceProp();
        try {
            Cuda.check(cudaGetDeviceProperties(prop, index), "cudaGetDeviceProperties", "device", index);
            byte[] uuid = new byte[16];
            try (CUuuid u = new CUuuid()) {
                Cuda.checkDriver(cuDeviceGetUuid(u, Cuda.cuDevice(index)), "cuDeviceGetUuid", "device", index);
                u.bytes().get(uuid);
            }
            return new Properties(index, Pointers.cString(prop.name()), formatUuid(uuid), pciBusId(index),
                    prop.major(), prop.minor(), prop.totalGlobalMem(), prop.multiProcessorCount(),
                    prop.asyncEngineCount(), prop.l2CacheSize(),
                    attributeOr(index, cudaDevAttrNumaId, -1),
                    Cuda.attribute(index, cudaDevAttrUnifiedAddressing) != 0);
        } finally {
            prop.close();
        }
    }

    private static int attributeOr(int device, int attribute, int fallback) {
        int[] value = {0};
        int status = cudaDeviceGetAttribute(value, attribute, device);
        if (status != cudaSuccess) {
            cudaGetLastError();
            return fallback;
        }
        return value[0];
    }

    /** The PCI bus id in canonical form. */
    public static String pciBusId(int index) {
        try (BytePointer text = new BytePointer(64)) {
            Cuda.check(cudaDeviceGetPCIBusId(text, 64, index), "cudaDeviceGetPCIBusId", "device", index);
            return PciBusId.normalize(Pointers.cString(text));
        }
    }

    /** nvidia-smi's spelling of a UUID: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx. */
    static String formatUuid(byte[] b) {
        String hex = HexFormat.of().formatHex(b);
        return "GPU-" + hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
                + hex.substring(16, 20) + "-" + hex.substring(20);
    }
}
