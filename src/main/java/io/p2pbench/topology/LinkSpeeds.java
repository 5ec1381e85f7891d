package io.p2pbench.topology;

/**
 * Line rates of the links between GPUs and to the host, per direction, in decimal GB/s: PCIe per
 * lane after line encoding (Gen1 0.25, Gen2 0.5, Gen3 0.985, Gen4 1.969, Gen5 3.938, Gen6 7.563),
 * NVLink per link (NVLink 2, 3 and 4: 25; NVLink 5: 50). These are ceilings: copies reach less
 * (packet headers, flow control); docs/expected-ranges.md has measured figures.
 */
public final class LinkSpeeds {
    private LinkSpeeds() {}

    /** PCIe GB/s per lane per direction for generation {@code gen}, NaN when unknown. */
    public static double pcieLaneGBps(int gen) {
        return switch (gen) {
            case 1 -> 0.25;
            case 2 -> 0.5;
            case 3 -> 0.985;
            case 4 -> 1.969;
            case 5 -> 3.938;
            case 6 -> 7.563;
            default -> Double.NaN;
        };
    }

    /** PCIe GB/s per direction of a link of generation {@code gen} and {@code lanes} lanes, NaN when unknown. */
    public static double pcieGBps(int gen, int lanes) {
        return pcieLaneGBps(gen) * lanes;
    }

    /** NVLink GB/s per link per direction for NVLink {@code version}, NaN when unknown. */
    public static double nvlinkGBps(int version) {
        return switch (version) {
            case 2, 3, 4 -> 25.0;
            case 5 -> 50.0;
            default -> Double.NaN;
        };
    }

    /**
     * The PCIe generation of a transfer rate in GT/s per lane (2.5, 5, 8, 16, 32, 64), or 0 when
     * the rate is none of them.
     */
    public static int pcieGeneration(double gigaTransfersPerSecond) {
        double[] rates = {2.5, 5, 8, 16, 32, 64};
        for (int i = 0; i < rates.length; i++) {
            if (Math.abs(gigaTransfersPerSecond - rates[i]) < 0.01) {
                return i + 1;
            }
        }
        return 0;
    }
}
