#!/usr/bin/env bash
# Builds target/p2pbench-<version>-linux-x86_64.tar.xz: a jlink'd Java runtime, the jars (CUDA
# bindings trimmed to the libraries the suite calls) and bin/p2pbench. Called by `mvn -Pbundle package`.
set -euo pipefail
target="$1"; version="$2"; deps="$target/bundle-deps"
name="p2pbench-$version"
out="$target/bundle/$name"
rm -rf "$target/bundle" && mkdir -p "$out/lib" "$out/bin"

cp "$target/p2pbench-$version.jar" "$out/lib/"
work="$target/bundle-trim"; rm -rf "$work"; mkdir -p "$work"
trim() { # jar, then the entries to keep (zip patterns)
  local jar="$1"; shift
  local dir="$work/$(basename "$jar" .jar)"; mkdir -p "$dir"
  (cd "$dir" && unzip -q "$jar" "$@" 'META-INF/*' -x 'META-INF/native-image/*')
  (cd "$dir" && zip -qr -X "$out/lib/$(basename "$jar")" .)
}
for jar in "$deps"/*.jar; do
  case "$(basename "$jar")" in
    cuda-*-linux-x86_64.jar)
      trim "$jar" 'org/bytedeco/cuda/linux-x86_64/libjnicudart.so' 'org/bytedeco/cuda/linux-x86_64/libjninvml.so' \
        'org/bytedeco/cuda/linux-x86_64/libjninccl.so' 'org/bytedeco/cuda/linux-x86_64/libjninvrtc.so' \
        'org/bytedeco/cuda/linux-x86_64/libjnicublas.so' ;;
    cuda-*.jar)
      trim "$jar" 'org/bytedeco/cuda/cudart/*' 'org/bytedeco/cuda/nvml/*' 'org/bytedeco/cuda/nccl/*' \
        'org/bytedeco/cuda/nvrtc/*' 'org/bytedeco/cuda/presets/*' 'org/bytedeco/cuda/global/cudart*' \
        'org/bytedeco/cuda/global/nvml*' 'org/bytedeco/cuda/global/nccl*' 'org/bytedeco/cuda/global/nvrtc*' \
        'org/bytedeco/cuda/cublas/*' 'org/bytedeco/cuda/global/cublas*' ;;
    jcuda-natives-*.jar)
      trim "$jar" 'lib/libJCudaDriver-*' ;;
    *) cp "$jar" "$out/lib/" ;;
  esac
done

jlink --add-modules java.base,java.desktop,java.logging,java.management,java.sql,java.xml,jdk.unsupported,jdk.management \
  --strip-debug --no-header-files --no-man-pages --compress=0 --output "$out/runtime"
# The base class-data archive (lib/server/classes.jsa): forks' own archive (run/ForkArchive) builds on it.
"$out/runtime/bin/java" -Xshare:dump > /dev/null
cp "$(dirname "$0")/p2pbench" "$out/bin/p2pbench"
chmod +x "$out/bin/p2pbench"
cat > "$out/README.txt" <<TXT
p2pbench $version for linux-x86_64. Needs an NVIDIA driver (CUDA 13 capable), the CUDA 13 runtime
(libcudart.so.13, libnvrtc.so.13) and, for collectives, NCCL (libnccl.so.2). No Java needed.
  bin/p2pbench topology            the GPUs and how they are linked
  bin/p2pbench run --preset quick  the suite; results under ./results/<machine>/<time>/
  bin/p2pbench --help
TXT
archive="$target/$name-linux-x86_64.tar.xz"
XZ_OPT=-9e tar -C "$target/bundle" -cJf "$archive" "$name"
size=$(stat -c %s "$archive")
echo "bundle: $archive ($(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1048576 }') MiB, $size bytes)"
if [ "$size" -gt $((45 * 1048576)) ]; then
  echo "bundle is larger than 45 MiB" >&2; exit 1
fi
