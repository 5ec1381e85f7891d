#!/usr/bin/env python3
"""Writes the recorded machine trees of src/test/resources/doctor/ (see README.md there).

Run from the repository root: python3 src/test/resources/doctor/make_fixtures.py
Every tree is rewritten from scratch; the output is deterministic.
"""
import json
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

GIB = 1 << 30
MIB = 1 << 20
SPEED = {1: "2.5 GT/s PCIe", 2: "5.0 GT/s PCIe", 3: "8.0 GT/s PCIe", 4: "16.0 GT/s PCIe", 5: "32.0 GT/s PCIe"}
NOT_SUPPORTED = "nvmlDeviceGetNvLinkState: 3 Not Supported"


def write(root, rel, data):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        f.write(data)


def config(vendor, device, cls, header_type, acs_control=None, root_read=True):
    """A PCI configuration space: 4096 bytes as root reads it, the first 64 as anyone else does.

    Extended capabilities: AER at 0x100, then (when acs_control is given) ACS at 0x148.
    """
    cfg = bytearray(4096)
    struct.pack_into("<HHHH", cfg, 0, vendor, device, 0x0406, 0x0010)
    cfg[8] = 0x01  # revision
    cfg[9], cfg[10], cfg[11] = cls & 0xFF, (cls >> 8) & 0xFF, (cls >> 16) & 0xFF
    cfg[0x0E] = header_type
    cfg[0x34] = 0x40
    cfg[0x40], cfg[0x41] = 0x10, 0x00  # PCI Express capability, end of the list
    nxt = 0x148 if acs_control is not None else 0
    struct.pack_into("<I", cfg, 0x100, 0x0001 | (1 << 16) | (nxt << 20))  # AER v1
    if acs_control is not None:
        struct.pack_into("<IHH", cfg, 0x148, 0x000D | (1 << 16), 0x005F, acs_control)  # ACS v1, end of the list
    return bytes(cfg if root_read else cfg[:64])


def port(root, path, vendor, device, gen, width, acs_control=None, root_read=True, cls=0x060400):
    d = "sys/devices/" + path
    write(root, d + "/vendor", "0x%04x\n" % vendor)
    write(root, d + "/device", "0x%04x\n" % device)
    write(root, d + "/class", "0x%06x\n" % cls)
    write(root, d + "/current_link_speed", SPEED[gen] + "\n")
    write(root, d + "/current_link_width", "%d\n" % width)
    write(root, d + "/max_link_speed", SPEED[gen] + "\n")
    write(root, d + "/max_link_width", "%d\n" % width)
    write(root, d + "/config", config(vendor, device, cls, 0x01, acs_control, root_read))


def gpu(root, path, device, numa, now, most, bar1, cls=0x030200, cpus="0-63"):
    d = "sys/devices/" + path
    write(root, d + "/vendor", "0x10de\n")
    write(root, d + "/device", "0x%04x\n" % device)
    write(root, d + "/class", "0x%06x\n" % cls)
    write(root, d + "/numa_node", "%d\n" % numa)
    write(root, d + "/local_cpulist", cpus + "\n")
    write(root, d + "/current_link_speed", SPEED[now[0]] + "\n")
    write(root, d + "/current_link_width", "%d\n" % now[1])
    write(root, d + "/max_link_speed", SPEED[most[0]] + "\n")
    write(root, d + "/max_link_width", "%d\n" % most[1])
    base = 0x380000000000
    res = ["0x00000000e2000000 0x00000000e2ffffff 0x0000000000040200",
           "0x%016x 0x%016x 0x000000000014220c" % (base, base + bar1 - 1),
           "0x0000000000000000 0x0000000000000000 0x0000000000000000",
           "0x%016x 0x%016x 0x000000000014220c" % (base + bar1, base + bar1 + 32 * MIB - 1)]
    res += ["0x0000000000000000 0x0000000000000000 0x0000000000000000"] * 9
    write(root, d + "/resource", "\n".join(res) + "\n")
    write(root, d + "/config", config(0x10DE, device, cls, 0x00, None, root_read=False))


def host(root, model, sockets, cores, vm, vendor, product, cmdline, nodes=1):
    lines = []
    for cpu in range(cores):
        sock = cpu * sockets // cores
        flags = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht"
        if vm:
            flags += " hypervisor"
        lines += ["processor\t: %d" % cpu, "vendor_id\t: %s" % ("AuthenticAMD" if "AMD" in model else "GenuineIntel"),
                  "model name\t: " + model, "physical id\t: %d" % sock, "core id\t\t: %d" % cpu,
                  "flags\t\t: " + flags, ""]
    write(root, "proc/cpuinfo", "\n".join(lines) + "\n")
    write(root, "proc/cmdline", cmdline + "\n")
    if vendor is not None:
        write(root, "sys/class/dmi/id/sys_vendor", vendor + "\n")
        write(root, "sys/class/dmi/id/product_name", product + "\n")
    per = cores // nodes
    for n in range(nodes):
        write(root, "sys/devices/system/node/node%d/cpulist" % n, "%d-%d\n" % (n * per, (n + 1) * per - 1))


def iommu(root, units, groups):
    for u in units:
        write(root, "sys/class/iommu/%s/intel-iommu/version" % u, "1:0\n")
    for number, (kind, devices) in groups.items():
        write(root, "sys/kernel/iommu_groups/%d/type" % number, kind + "\n")
        for dev in devices:
            write(root, "sys/kernel/iommu_groups/%d/devices/%s" % (number, dev), "")


def compact(value, indent=0):
    """JSON with one line per list element of objects, so that a GPU's NVLinks read as a table."""
    pad = " " * indent
    if isinstance(value, dict):
        items = [pad + " " + json.dumps(k) + ": " + compact(v, indent + 1).lstrip() for k, v in value.items()]
        return pad + "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        if all(not any(isinstance(x, (list, dict)) for x in v.values()) for v in value):
            return pad + "[\n" + ",\n".join(pad + "  " + json.dumps(v) for v in value) + "\n" + pad + "]"
        return pad + "[\n" + ",\n".join(compact(v, indent + 1) for v in value) + "\n" + pad + "]"
    return pad + json.dumps(value)


def gpus_json(root, doc):
    text = compact(doc) + "\n"
    assert json.loads(text) == doc
    write(root, "gpus.json", text)


def gpu_entry(index, name, bus, memory, now, most, numa, bar1, persistence=True, nvlinks=None, note=NOT_SUPPORTED,
              errors=None):
    g = {"index": index, "name": name, "pciBusId": bus, "memoryBytes": memory,
         "pcieGenCurrent": now[0], "pcieGenMax": most[0], "pcieWidthCurrent": now[1], "pcieWidthMax": most[1],
         "numaNode": numa, "nvlinks": nvlinks or [], "bar1TotalBytes": bar1, "persistenceMode": persistence}
    if not nvlinks:
        g["nvlinkNote"] = note
    if errors is not None:
        g["nvlinkErrors"] = errors
    return g


def fresh(name):
    root = os.path.join(HERE, name)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    return root


H100_PCIE = ("NVIDIA H100 PCIe", 0x2331, 85520809984, 128 * GIB)
BRCM = (0x1000, 0xC030)  # Broadcom PEX890xx Gen5 switch


def switch_server(name, acs_on):
    """Bare metal, one socket, two H100 PCIe behind one Broadcom Gen5 switch."""
    root = fresh(name)
    host(root, "Intel(R) Xeon(R) Platinum 8480+", 1, 4, False, "Supermicro", "SYS-421GE-TNRT",
         "BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=0b1c ro intel_iommu=on" if acs_on
         else "BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=0b1c ro quiet")
    redirect = 0x001D if acs_on else 0x0000  # SrcValid ReqRedir CmpltRedir UpstreamFwd
    port(root, "pci0000:00/0000:00:01.0", 0x8086, 0x352A, 5, 16, acs_control=0x001D, root_read=acs_on)
    port(root, "pci0000:00/0000:00:01.0/0000:01:00.0", BRCM[0], BRCM[1], 5, 16, root_read=acs_on)
    for i, (down, bus) in enumerate([("0000:02:00.0", "0000:03:00.0"), ("0000:02:01.0", "0000:04:00.0")]):
        p = "pci0000:00/0000:00:01.0/0000:01:00.0/" + down
        port(root, p, BRCM[0], BRCM[1], 5, 16, acs_control=redirect, root_read=acs_on)
        gpu(root, p + "/" + bus, H100_PCIE[1], 0, (5, 16), (5, 16), H100_PCIE[3])
    if acs_on:
        iommu(root, ["dmar0", "dmar1"], {30: ("DMA-FQ", ["0000:03:00.0"]), 31: ("DMA-FQ", ["0000:04:00.0"]),
                                          12: ("DMA-FQ", ["0000:00:01.0"])})
    else:
        write(root, "lspci-vvv.txt", lspci_switch())
    gpus_json(root, {
        "driverVersion": "580.159.04",
        "gpus": [gpu_entry(i, H100_PCIE[0], bus, H100_PCIE[2], (5, 16), (5, 16), 0, H100_PCIE[3],
                           persistence=not acs_on)
                 for i, bus in enumerate(["0000:03:00.0", "0000:04:00.0"])],
        "pairDefaults": {"canAccessPeer": True, "accessSupported": True, "nativeAtomics": False,
                         "performanceRank": 0, "nvmlAncestor": 10}})


def lspci_switch():
    ctl_off = "SrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-"
    cap = "SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl+ DirectTrans+"
    blocks = []
    def bridge(bdf, what, kind, acs):
        b = ["%s PCI bridge: %s (rev b0) (prog-if 00 [Normal decode])" % (bdf, what),
             "\tControl: I/O+ Mem+ BusMaster+ SpecCycle- MemWINV- VGASnoop- ParErr+ Stepping- SERR+ FastB2B- DisINTx+",
             "\tCapabilities: [40] Express (v2) %s, MSI 00" % kind,
             "\t\tLnkCap:\tPort #0, Speed 32GT/s, Width x16, ASPM not supported",
             "\t\tLnkSta:\tSpeed 32GT/s, Width x16",
             "\tCapabilities: [100 v1] Advanced Error Reporting"]
        if acs:
            b += ["\tCapabilities: [148 v1] Access Control Services", "\t\tACSCap:\t" + cap, "\t\tACSCtl:\t" + ctl_off]
        b += ["\tKernel driver in use: pcieport", ""]
        return "\n".join(b)
    blocks.append(bridge("0000:00:01.0", "Intel Corporation Device 352a", "Root Port (Slot+)", True))
    blocks.append(bridge("0000:01:00.0", "Broadcom / LSI PEX890xx PCIe Gen 5 Switch", "Upstream Port", False))
    blocks.append(bridge("0000:02:00.0", "Broadcom / LSI PEX890xx PCIe Gen 5 Switch", "Downstream Port (Slot+)", True))
    blocks.append(bridge("0000:02:01.0", "Broadcom / LSI PEX890xx PCIe Gen 5 Switch", "Downstream Port (Slot+)", True))
    for bdf in ["0000:03:00.0", "0000:04:00.0"]:
        blocks.append("\n".join(["%s 3D controller: NVIDIA Corporation GH100 [H100 PCIe] (rev a1)" % bdf,
                                 "\tSubsystem: NVIDIA Corporation Device 1626",
                                 "\tCapabilities: [60] Power Management version 3",
                                 "\tCapabilities: [100 v1] Virtual Channel",
                                 "\tKernel driver in use: nvidia", ""]))
    return "\n".join(blocks)


def cloud_vm():
    """A cloud VM with two A10G passed through: flattened tree, no peer access."""
    root = fresh("cloud-vm")
    host(root, "AMD EPYC 7R32", 1, 4, True, "Amazon EC2", "g5.12xlarge",
         "BOOT_IMAGE=/boot/vmlinuz-6.8.0-1015-aws root=PARTUUID=5e4d ro console=ttyS0 nvme_core.io_timeout=4294967295")
    for bus in ["0000:00:1b.0", "0000:00:1c.0"]:
        gpu(root, "pci0000:00/" + bus, 0x2237, 0, (4, 16), (4, 16), 32 * GIB)
    gpus_json(root, {
        "driverVersion": "580.159.04",
        "gpus": [gpu_entry(i, "NVIDIA A10G", bus, 24146608128, (4, 16), (4, 16), 0, 32 * GIB)
                 for i, bus in enumerate(["0000:00:1b.0", "0000:00:1c.0"])],
        "pairDefaults": {"canAccessPeer": False, "accessSupported": False, "nativeAtomics": False,
                         "performanceRank": 0, "nvmlAncestor": 30}})


def consumer():
    """Two GeForce RTX 4090 behind one Gen4 switch, ACS off, no Resizable BAR: the driver refuses P2P."""
    root = fresh("consumer-no-p2p")
    host(root, "AMD Ryzen Threadripper PRO 7975WX 32-Cores", 1, 4, False, "ASUS", "Pro WS WRX90E-SAGE SE",
         "BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=77aa ro quiet splash")
    sw = (0x11F8, 0x4000)  # Microchip Switchtec PM40100 (Gen4)
    port(root, "pci0000:00/0000:00:01.1", 0x1022, 0x14AB, 4, 16, acs_control=0x0000)
    port(root, "pci0000:00/0000:00:01.1/0000:01:00.0", sw[0], sw[1], 4, 16)
    buses = []
    for down, bus in [("0000:02:00.0", "0000:03:00.0"), ("0000:02:01.0", "0000:04:00.0")]:
        p = "pci0000:00/0000:00:01.1/0000:01:00.0/" + down
        port(root, p, sw[0], sw[1], 4, 16, acs_control=0x0000)
        gpu(root, p + "/" + bus, 0x2684, 0, (4, 16), (4, 16), 256 * MIB, cls=0x030000)
        buses.append(bus)
    gpus_json(root, {
        "driverVersion": "580.159.04",
        "gpus": [gpu_entry(i, "NVIDIA GeForce RTX 4090", bus, 25757220864, (4, 16), (4, 16), 0, 256 * MIB)
                 for i, bus in enumerate(buses)],
        "pairDefaults": {"canAccessPeer": False, "accessSupported": False, "nativeAtomics": False,
                         "performanceRank": 0, "nvmlAncestor": 10}})


def gen4x8():
    """Two H100 PCIe on two root ports of one host bridge; GPU1 trained at Gen4 x8 in a Gen5 x16 slot."""
    root = fresh("gen4x8-slot")
    host(root, "Intel(R) Xeon(R) Gold 6430", 1, 4, False, "Dell Inc.", "PowerEdge R760xa",
         "BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=9f1e ro intel_iommu=on iommu=pt")
    port(root, "pci0000:00/0000:00:01.0", 0x8086, 0x352A, 5, 16, root_read=False)
    port(root, "pci0000:00/0000:00:03.0", 0x8086, 0x352C, 5, 16, root_read=False)
    gpu(root, "pci0000:00/0000:00:01.0/0000:01:00.0", H100_PCIE[1], 0, (5, 16), (5, 16), H100_PCIE[3])
    gpu(root, "pci0000:00/0000:00:03.0/0000:02:00.0", H100_PCIE[1], 0, (4, 8), (5, 16), H100_PCIE[3])
    # The port trained with the GPU: it shows the same speed and width now.
    write(root, "sys/devices/pci0000:00/0000:00:03.0/current_link_speed", SPEED[4] + "\n")
    write(root, "sys/devices/pci0000:00/0000:00:03.0/current_link_width", "8\n")
    iommu(root, ["dmar0"], {21: ("identity", ["0000:01:00.0"]), 22: ("identity", ["0000:02:00.0"])})
    gpus_json(root, {
        "driverVersion": "580.159.04",
        "gpus": [gpu_entry(0, H100_PCIE[0], "0000:01:00.0", H100_PCIE[2], (5, 16), (5, 16), 0, H100_PCIE[3]),
                 gpu_entry(1, H100_PCIE[0], "0000:02:00.0", H100_PCIE[2], (4, 8), (5, 16), 0, H100_PCIE[3])],
        "pairDefaults": {"canAccessPeer": True, "accessSupported": True, "nativeAtomics": False,
                         "performanceRank": 0, "nvmlAncestor": 30}})


def two_socket():
    """Two sockets (AMD EPYC), three H100 PCIe: GPU0 and GPU1 on node 0 (two host bridges), GPU2 on node 1."""
    root = fresh("two-socket-sys")
    host(root, "AMD EPYC 9654 96-Core Processor", 2, 8, False, "Gigabyte Technology Co., Ltd.", "G293-Z43",
         "BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=3c2d ro amd_iommu=on iommu=pt", nodes=2)
    layout = [("pci0000:00/0000:00:01.1", "0000:01:00.0", 0), ("pci0000:40/0000:40:01.1", "0000:41:00.0", 0),
              ("pci0000:80/0000:80:01.1", "0000:81:00.0", 1)]
    groups = {}
    for n, (rp, bus, numa) in enumerate(layout):
        port(root, rp, 0x1022, 0x14AB, 5, 16, root_read=False)
        gpu(root, rp + "/" + bus, H100_PCIE[1], numa, (5, 16), (5, 16), H100_PCIE[3],
            cpus="0-3" if numa == 0 else "4-7")
        groups[40 + n] = ("identity", [bus])
    iommu(root, [], groups)
    write(root, "sys/class/iommu/ivhd0/amd-iommu/cap", "0x0000000000000000\n")
    write(root, "sys/class/iommu/ivhd1/amd-iommu/cap", "0x0000000000000000\n")
    pairs = [{"src": s, "dst": d, "nvmlAncestor": 40 if {s, d} == {0, 1} else 50}
             for s in range(3) for d in range(3) if s != d]
    gpus_json(root, {
        "driverVersion": "580.159.04",
        "gpus": [gpu_entry(i, H100_PCIE[0], bus, H100_PCIE[2], (5, 16), (5, 16), numa, H100_PCIE[3])
                 for i, (_, bus, numa) in enumerate(layout)],
        "pairDefaults": {"canAccessPeer": True, "accessSupported": True, "nativeAtomics": False,
                         "performanceRank": 0},
        "pairs": pairs})


def nvswitch8():
    """8x H200 SXM on NVSwitch (the bus ids of topologies/h200x8-nv18-r580.json); GPU3 NVLink 7 down, GPU5 link 2 errors."""
    root = fresh("nvswitch8-link-down")
    host(root, "Intel(R) Xeon(R) Platinum 8480+", 2, 8, False, "NVIDIA", "DGX H200",
         "BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=1d2e ro intel_iommu=on iommu=pt", nodes=2)
    entries = []
    groups = {}
    switches = ["0000:a0:00.0", "0000:a1:00.0", "0000:a2:00.0", "0000:a3:00.0"]
    for i in range(8):
        bus = "0000:%02x:00.0" % (0x18 + 0x10 * i)
        b = 0x18 + 0x10 * i
        rp = "pci0000:%02x/0000:%02x:01.0" % (b - 3, b - 3)
        up = "%s/0000:%02x:00.0" % (rp, b - 2)
        down = "%s/0000:%02x:00.0" % (up, b - 1)
        port(root, rp, 0x8086, 0x352A, 5, 16, root_read=False)
        port(root, up, BRCM[0], BRCM[1], 5, 16, root_read=False)
        port(root, down, BRCM[0], BRCM[1], 5, 16, root_read=False)
        numa = 0 if i < 4 else 1
        gpu(root, down + "/" + bus, 0x2335, numa, (5, 16), (5, 16), 256 * GIB, cpus="0-3" if numa == 0 else "4-7")
        groups[60 + i] = ("identity", [bus])
        links = [{"link": l, "active": not (i == 3 and l == 7), "version": 4,
                  "remotePciBusId": switches[l % 4], "remoteType": "switch"} for l in range(18)]
        errors = [{"link": l, "replay": 120 if (i == 5 and l == 2) else 0, "recovery": 3 if (i == 5 and l == 2) else 0,
                   "crcFlit": 41 if (i == 5 and l == 2) else 0, "crcData": 0} for l in range(18)]
        entries.append(gpu_entry(i, "NVIDIA H200", bus, 150754820096, (5, 16), (5, 16), numa, 256 * GIB,
                                 nvlinks=links, errors=errors))
    iommu(root, ["dmar0", "dmar1", "dmar2", "dmar3"], groups)
    pairs = [{"src": s, "dst": d, "nvmlAncestor": 50} for s in range(8) for d in range(8)
             if s != d and (s < 4) != (d < 4)]
    gpus_json(root, {"driverVersion": "580.159.04", "gpus": entries,
                     "pairDefaults": {"canAccessPeer": True, "accessSupported": True, "nativeAtomics": True,
                                      "performanceRank": 0, "nvmlAncestor": 40},
                     "pairs": pairs})


def h200_vm_node():
    """Like the H200 reference node: a VM, one H200 at PCIe Gen5 x16, sysfs numa_node -1, NVLink NOT_SUPPORTED."""
    root = fresh("h200-vm-node")
    host(root, "Intel(R) Xeon(R) Platinum 8480+", 1, 4, True, "QEMU", "Standard PC (Q35 + ICH9, 2009)",
         "BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=LABEL=cloudimg-rootfs ro console=ttyS0")
    port(root, "pci0000:00/0000:00:02.0", 0x1B36, 0x000C, 5, 16, root_read=False)
    gpu(root, "pci0000:00/0000:00:02.0/0000:01:00.0", 0x2335, -1, (5, 16), (5, 16), 256 * GIB)
    g = gpu_entry(0, "NVIDIA H200", "0000:01:00.0", 150754820096, (5, 16), (5, 16), None, 256 * GIB)
    del g["numaNode"]
    gpus_json(root, {"driverVersion": "580.159.04", "gpus": [g]})


def no_driver():
    """The ACS-off switch server without a working driver: GPUs only in sysfs."""
    root = fresh("no-driver")
    src = os.path.join(HERE, "switch-acs-off")
    for dirpath, _, files in os.walk(src):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), src)
            if rel == "gpus.json":
                continue
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            shutil.copyfile(os.path.join(dirpath, f), os.path.join(root, rel))
    gpus_json(root, {"problem": "CUDA is not available: the NVIDIA driver library libcuda.so.1 was not found; "
                                "p2pbench needs an NVIDIA GPU with its driver installed"})


if __name__ == "__main__":
    switch_server("switch-acs-on", True)
    switch_server("switch-acs-off", False)
    cloud_vm()
    consumer()
    gen4x8()
    two_socket()
    nvswitch8()
    h200_vm_node()
    no_driver()
