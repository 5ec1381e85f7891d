package io.p2pbench.doctor;

import static io.p2pbench.doctor.DoctorFixturesTest.FIXTURES;
import static io.p2pbench.doctor.DoctorFixturesTest.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.doctor.Finding.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Recorded machines are untrusted input: a bad one is one line naming it; an unreadable value is unknown. */
class FixtureMachineTest {
    @TempDir
    Path tmp;

    /** A copy of a fixture to damage. */
    private Path copy(String fixture) throws IOException {
        Path from = FIXTURES.resolve(fixture);
        Path to = tmp.resolve(fixture);
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }

    private static String fails(Path dir) {
        IOException e = assertThrows(IOException.class, () -> FixtureMachine.open(dir));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    @Test
    void missingFolderAndMissingGpusJsonNameWhatIsMissing() throws IOException {
        assertContains(fails(tmp.resolve("nowhere")), "nowhere is not a folder", "gpus.json");
        Files.createDirectories(tmp.resolve("empty"));
        assertContains(fails(tmp.resolve("empty")), "has no gpus.json");
    }

    @Test
    void malformedGpusJsonIsOneLineNamingTheFileAndTheField() throws IOException {
        Path dir = copy("switch-acs-off");
        Path gpus = dir.resolve("gpus.json");
        String good = Files.readString(gpus);
        Files.writeString(gpus, good.substring(0, good.length() / 2));
        assertContains(fails(dir), "gpus.json is not a doctor gpus.json");
        Files.writeString(gpus, good.replace("\"0000:04:00.0\"", "\"04:00.0; rm -rf /\""));
        assertContains(fails(dir), "gpus[1].pciBusId '04:00.0; rm -rf /' is not a PCI bus id");
        Files.writeString(gpus, good.replace("\"pcieGenCurrent\": 5", "\"pcieGenCurrent\": 9"));
        assertContains(fails(dir), "gpus[0].pcieGenCurrent 9 is outside 1..6");
        Files.writeString(gpus, good.replace("\"canAccessPeer\": true,", ""));
        assertContains(fails(dir), "pair 0-1 has no canAccessPeer");
        Files.writeString(gpus, good.replace("\"nvmlAncestor\": 10", "\"nvmlAncestor\": 15"));
        assertContains(fails(dir), "nvmlAncestor 15 is not an NVML topology level");
        Files.writeString(gpus, good.replace("\"persistenceMode\"", "\"persistence\""));
        assertContains(fails(dir), "unknown field \"gpus[0].persistence\"", "known here: ", "persistenceMode");
        Files.writeString(gpus, "null");
        assertContains(fails(dir), "holds JSON null");
        Files.writeString(gpus, "{\"gpus\": []}");
        assertContains(fails(dir), "\"gpus\" is missing or empty");
    }

    @Test
    void aDeviceTwiceInTheTreeIsMalformed() throws IOException {
        Path dir = copy("gen4x8-slot");
        Files.createDirectories(dir.resolve("sys/devices/pci0000:00/0000:00:03.0/0000:01:00.0"));
        assertContains(fails(dir), "device 0000:01:00.0 appears twice under sys/devices");
    }

    @Test
    void aLinkOutOfTheTreeIsNotFollowed() throws IOException {
        Path dir = copy("h200-vm-node");
        Path outside = Files.writeString(tmp.resolve("secret"), "hypervisor");
        Files.delete(dir.resolve("proc/cpuinfo"));
        Files.createSymbolicLink(dir.resolve("proc/cpuinfo"), outside);
        FixtureMachine m = FixtureMachine.open(dir);
        MachineSource.Unreadable e = assertThrows(MachineSource.Unreadable.class, () -> m.text("proc/cpuinfo"));
        assertContains(e.getMessage(), "is a link out of the machine tree");
        assertThrows(MachineSource.Unreadable.class, () -> m.text("../secret"));
        Finding vm = Doctor.diagnose(m, Map.of()).host(Check.VIRTUAL_MACHINE);
        assertEquals(Status.UNKNOWN, vm.status());
        assertContains(vm.summary(), "/proc/cpuinfo: is a link out of the machine tree");
    }

    @Test
    void anUnparsableSysfsValueIsUnknownNamingTheFileNotAnError() throws IOException {
        Path dir = copy("gen4x8-slot");
        Path width = dir.resolve("sys/devices/pci0000:00/0000:00:03.0/0000:02:00.0/current_link_width");
        Files.writeString(width, "x8?\n");
        Files.writeString(dir.resolve("gpus.json"), Files.readString(dir.resolve("gpus.json"))
                .replace("\"pcieWidthCurrent\": 8,", ""));
        Finding link = Doctor.diagnose(FixtureMachine.open(dir), Map.of()).gpu("GPU1").findings().stream()
                .filter(f -> f.check() == Check.PCIE_LINK).findFirst().orElseThrow();
        assertEquals(Status.UNKNOWN, link.status());
        assertContains(link.summary(), "/sys/bus/pci/devices/0000:02:00.0/current_link_width: 'x8?' is not a lane count");
    }

    @Test
    void anUnreadableSysfsFileIsUnknownWithTheReason() throws IOException {
        Path dir = copy("switch-acs-on");
        Path config = dir.resolve("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/config");
        Files.delete(config);
        Files.createDirectory(config);
        PairDiagnosis p = Doctor.diagnose(FixtureMachine.open(dir), Map.of()).pair("GPU0", "GPU1");
        assertEquals(Verdict.P2P_THROUGH_CPU, p.verdict(), "the other port still redirects");
        Finding unknown = p.causes().stream().filter(f -> f.check() == Check.ACS && f.status() == Status.UNKNOWN)
                .findFirst().orElseThrow(() -> new AssertionError(p.causes().toString()));
        assertTrue(unknown.evidence().get(0).contains("0000:02:00.0/config: is a directory, not a file"),
                unknown.evidence().toString());
    }

    @Test
    void aDriverProblemInGpusJsonIsTheGpuFinding() throws IOException {
        GpuAnswers a = FixtureMachine.open(FIXTURES.resolve("no-driver")).gpus();
        assertTrue(!a.readable() && a.problem().startsWith("CUDA is not available"), a.problem());
    }
}
