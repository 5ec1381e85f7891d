package io.p2pbench.spec;

/**
 * How a planned benchmark is measured. The {@link #label()} is what the manifest stores and the name
 * of the JMH benchmark method ({@code bandwidth}, {@code latency}) unless the catalogue
 * ({@code spec.JmhBenchmark}) names another (the partition study's {@code step} and {@code request});
 * a test checks the methods against JMH's generated benchmark list.
 */
public enum Metric {
    /** Device-timed batches; figures are medians over the measurement iteration's batches. */
    BANDWIDTH("bandwidth", "bw"),
    /** Host-observed time per transfer or operation (JMH SampleTime). */
    LATENCY("latency", "lat");

    private final String label;
    private final String idTag;

    Metric(String label, String idTag) {
        this.label = label;
        this.idTag = idTag;
    }

    /** The name in manifests and the JMH benchmark method. */
    public String label() {
        return label;
    }

    /** The short form in combination ids: {@code peer-bw-...}, {@code host-lat-...}. */
    public String idTag() {
        return idTag;
    }

    /** The metric labelled {@code label}; throws naming the accepted labels. */
    public static Metric of(String label) {
        for (Metric m : values()) {
            if (m.label.equals(label)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown metric '" + label + "'; known: bandwidth, latency");
    }
}
