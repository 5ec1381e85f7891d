package io.p2pbench.doctor;

import io.p2pbench.topology.TopologyJson;
import java.io.IOException;

/** {@code p2pbench doctor --json}: the {@link Diagnosis} as JSON (field names as in the records). */
public final class DoctorJson {
    private DoctorJson() {}

    /** The JSON text of {@code d}. */
    public static String write(Diagnosis d) {
        try {
            return TopologyJson.mapper().writeValueAsString(d) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise the diagnosis", e);
        }
    }
}
