package io.p2pbench.doctor;

import java.util.List;
import java.util.Optional;

/**
 * Everything {@code p2pbench doctor} reads of a machine, through one interface so that a recorded
 * machine tree ({@link FixtureMachine}) replaces the machine ({@link LiveMachine}): files of /proc
 * and /sys, an optional {@code lspci -vvv} capture, and the driver's answers (CUDA and NVML).
 * Paths are relative to the machine's root ({@code proc/cmdline}, {@code sys/bus/pci/devices/...}).
 * Nothing here writes to the machine.
 */
public interface MachineSource {
    /** What is read, for the report's first line: {@code this machine}, {@code fixture DIR}. */
    String description();

    /** The text of a file (at most 1 MiB). */
    String text(String path) throws Unreadable;

    /** The bytes of a file (at most 1 MiB); sysfs gives non-root readers only part of some files. */
    byte[] bytes(String path) throws Unreadable;

    /** The names in a directory, sorted. */
    List<String> list(String dir) throws Unreadable;

    /**
     * Where a PCI device sits in the device tree: the path that {@code sys/bus/pci/devices/BUSID}
     * links to, e.g. {@code sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0}; its components name
     * every bridge between the device and its host bridge.
     */
    String devicePath(String pciBusId) throws Unreadable;

    /** {@code lspci -vvv} output captured as root, where one was given. */
    Optional<String> lspci();

    /** What the driver answers about the GPUs; never throws (a driver that cannot be used is a problem inside). */
    GpuAnswers gpus();

    /** A path that could not be read, with why; {@link #absent()} when it does not exist. */
    final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;
        private final String path;
        private final boolean absent;

        /** {@code path} relative to the machine's root; {@code reason} says why, in a few words. */
        public Unreadable(String path, String reason, boolean absent) {
            super("/" + path + ": " + reason);
            this.path = path;
            this.absent = absent;
        }

        /** The path as the machine names it, e.g. {@code /proc/cmdline}. */
        public String path() {
            return "/" + path;
        }

        /** Whether the path does not exist (as opposed to existing and being unreadable). */
        public boolean absent() {
            return absent;
        }
    }
}
