package io.p2pbench.cli;

import picocli.CommandLine.Option;

/** {@code --nvbandwidth-size}: the buffer size of an nvbandwidth {@code -j} file, which its JSON does not record. */
final class NvbandwidthSizeOption {
    @Option(names = "--nvbandwidth-size", paramLabel = "SIZE", converter = RunCommand.SizeConverter.class,
            defaultValue = "512M",
            description = "Buffer size of the nvbandwidth run (its -b; the JSON does not record it). "
                    + "Default: ${DEFAULT-VALUE}, nvbandwidth's default.")
    long bytes;
}
