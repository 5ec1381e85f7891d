package io.p2pbench.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostProbeTest {
    private static final String CPUINFO = String.join("\n",
            "processor\t: 0", "model name\t: AMD EPYC 9654 96-Core Processor", "physical id\t: 0",
            "flags\t\t: fpu vme hypervisor sse", "", "processor\t: 1",
            "model name\t: AMD EPYC 9654 96-Core Processor", "physical id\t: 1", "flags\t\t: fpu vme hypervisor sse", "");

    @Test
    void parsesCpuModelSocketsAndVirtualisation() {
        assertEquals("AMD EPYC 9654 96-Core Processor", HostProbe.cpuModel(CPUINFO));
        assertEquals(2, HostProbe.sockets(CPUINFO));
        assertEquals("virtual machine (Firecracker microVM)",
                HostProbe.virtualization(CPUINFO, "Firecracker", "microVM"));
        assertEquals("none", HostProbe.virtualization(CPUINFO.replace("hypervisor ", ""), "", ""));
        assertEquals("unknown", HostProbe.cpuModel(""));
        assertEquals(1, HostProbe.sockets(""));
    }

    @Test
    void iommuStates() {
        assertEquals("passthrough", HostProbe.iommu(true, "BOOT_IMAGE=/vmlinuz intel_iommu=on iommu=pt"));
        assertEquals("on", HostProbe.iommu(true, "quiet"));
        assertEquals("on", HostProbe.iommu(false, "amd_iommu=on"));
        assertEquals("off", HostProbe.iommu(false, "quiet splash"));
    }

    @Test
    void cpuListsCollapseRanges() {
        assertEquals("0-3,8-9,12", HostProbe.cpuList(List.of(9, 8, 0, 1, 2, 3, 12)));
        assertEquals("5", HostProbe.cpuList(List.of(5)));
        assertEquals(null, HostProbe.cpuList(List.of()));
    }

    @Test
    void readsAFakeSysfs(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("proc"));
        Files.writeString(root.resolve("proc/cpuinfo"), CPUINFO);
        Files.createDirectories(root.resolve("sys/devices/system/node/node0"));
        Files.createDirectories(root.resolve("sys/devices/system/node/node1"));
        Path dev = root.resolve("sys/bus/pci/devices/0000:18:00.0");
        Files.createDirectories(dev);
        Files.writeString(dev.resolve("numa_node"), "-1\n");
        Files.writeString(dev.resolve("local_cpulist"), "0-15\n");
        HostProbe p = new HostProbe(root);
        assertEquals(2, p.numaNodes());
        assertEquals(-1, p.pciNumaNode("0000:18:00.0"));
        assertEquals("0-15", p.pciLocalCpus("0000:18:00.0"));
        assertEquals(null, p.pciNumaNode("0000:99:00.0"));
        assertEquals("off", p.iommu());
    }
}
