package io.p2pbench.fork;

import java.util.List;

/**
 * JVM options of every benchmark fork. The benchmark classes name them in {@code @Fork}; the run
 * command passes them again, because JMH replaces (not extends) the annotation's options with its own.
 */
public final class ForkSettings {
    /** Heap: buffers live outside it, so a small heap keeps GC pauses short. */
    public static final String HEAP = "-Xmx2g";
    /** Charts and fonts never need a display. */
    public static final String HEADLESS = "-Djava.awt.headless=true";
    /** JavaCPP must not refuse native allocations by its own heap-based limits (buffers reach GiBs). */
    public static final String NO_JAVACPP_LIMIT = "-Dorg.bytedeco.javacpp.maxbytes=0";
    /** Likewise for its physical-memory limit. */
    public static final String NO_JAVACPP_PHYSICAL_LIMIT = "-Dorg.bytedeco.javacpp.maxphysicalbytes=0";

    private ForkSettings() {}

    /** All of them, in order. */
    public static List<String> all() {
        return List.of(HEAP, HEADLESS, NO_JAVACPP_LIMIT, NO_JAVACPP_PHYSICAL_LIMIT);
    }
}
