package io.p2pbench.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the recorded launcher environments of {@code src/test/resources/launch/} (KEY=VALUE lines, # comments). */
final class EnvFixtures {
    private EnvFixtures() {}

    static Map<String, String> read(String name) {
        try (InputStream in = EnvFixtures.class.getResourceAsStream("/launch/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture /launch/" + name);
            }
            Map<String, String> env = new LinkedHashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                int eq = l.indexOf('=');
                env.put(l.substring(0, eq), l.substring(eq + 1));
            }
            return env;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code name} with {@code extra} added (or, with a null value, removed). */
    static Map<String, String> with(String name, String... extra) {
        Map<String, String> env = read(name);
        for (int i = 0; i + 1 < extra.length; i += 2) {
            if (extra[i + 1] == null) {
                env.remove(extra[i]);
            } else {
                env.put(extra[i], extra[i + 1]);
            }
        }
        return env;
    }
}
