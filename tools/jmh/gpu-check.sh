#!/usr/bin/env bash
# `mvn verify -Pjmh` runs this first (validate phase): without an NVIDIA driver and GPU device it prints one
# line saying why and exits 1, so the build stops in seconds, before compiling and testing.
found=""
for d in ${LD_LIBRARY_PATH//:/ } /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64 /lib/x86_64-linux-gnu; do
  [ -e "$d/libcuda.so.1" ] && found="$d/libcuda.so.1" && break
done
[ -z "$found" ] && command -v ldconfig >/dev/null && ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1' && found=ldconfig
if [ -z "$found" ]; then
  echo "p2pbench: no NVIDIA driver here (libcuda.so.1 not found on LD_LIBRARY_PATH, /usr/local/nvidia/lib64 or the linker cache); mvn verify -Pjmh needs a GPU node, mvn -B verify runs the tests"
  exit 1
fi
if ! ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
  echo "p2pbench: the NVIDIA driver is installed but no GPU device (/dev/nvidia0...) is visible; mvn verify -Pjmh needs a GPU"
  exit 1
fi
exit 0
