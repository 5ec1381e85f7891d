package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import org.bytedeco.cuda.cudart.CUfunc_st;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

/**
 * One kernel of a {@link CudaModule}, launched with cuLaunchKernel.
 *
 * <p>Arguments are boxed values: {@link Long} for 64-bit integers and device addresses, {@link
 * Integer} for 32-bit integers, {@link Float}, or a {@link Memory} (its address). The kernel
 * parameter array holds one pointer per argument, each to its own value:
 * {@code new PointerPointer(n).put(i, p)}, never {@code new PointerPointer(p)}, which in JavaCPP is
 * a cast of one pointer, not a one-element array, and crashes inside cuLaunchKernel.
 */
public final class Kernel {
    private final CudaModule module;
    private final String name;
    private final CUfunc_st function;

    Kernel(CudaModule module, String name, CUfunc_st function) {
        this.module = module;
        this.name = name;
        this.function = function;
    }

    /** The kernel's name in the module. */
    public String name() {
        return name;
    }

    /** Enqueues the kernel once on {@code stream}, which must be on the module's GPU. */
    public void launch(CudaStream stream, int gridX, int blockX, Object... args) {
        try (Launch launch = prepare(gridX, blockX, args)) {
            launch.enqueue(stream);
        }
    }

    /**
     * Builds the parameter array once, for a launch repeated in a measured loop: {@link
     * Launch#enqueue} then costs one cuLaunchKernel and no allocation.
     */
    public Launch prepare(int gridX, int blockX, Object... args) {
        return new Launch(gridX, blockX, args);
    }

    /** A launch with fixed arguments, enqueued any number of times; close it to free the parameters. */
    public final class Launch implements AutoCloseable {
        private final int gridX;
        private final int blockX;
        private final Pointer[] values;
        private final PointerPointer<Pointer> params;
        private boolean closed;

        private Launch(int gridX, int blockX, Object... args) {
            if (gridX <= 0 || blockX <= 0) {
                throw new IllegalArgumentException("kernel " + name + ": grid " + gridX + " and block "
                        + blockX + " must be positive");
            }
            this.gridX = gridX;
            this.blockX = blockX;
            this.values = new Pointer[args.length];
            this.params = new PointerPointer<>(Math.max(1, args.length));
            for (int i = 0; i < args.length; i++) {
                values[i] = box(args[i]);
                params.put(i, values[i]);
            }
        }

        /** Enqueues the kernel on {@code stream}, which must be on the module's GPU. */
        public void enqueue(CudaStream stream) {
            if (closed) {
                throw new IllegalStateException("launch of " + name + " is closed");
            }
            if (stream.device() != module.device()) {
                throw new IllegalArgumentException("kernel " + name + " of GPU " + module.device()
                        + " launched on a stream of GPU " + stream.device());
            }
            Cuda.setDevice(module.device());
            int result = cuLaunchKernel(function, gridX, 1, 1, blockX, 1, 1, 0, stream.handle(), params,
                    (PointerPointer<?>) null);
            if (result != CUDA_SUCCESS) {
                Cuda.checkDriver(result, "cuLaunchKernel", "kernel", name, "device", module.device(),
                        "grid", gridX, "block", blockX);
            }
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                params.close();
                for (Pointer p : values) {
                    p.close();
                }
            }
        }
    }

    private Pointer box(Object arg) {
        if (arg instanceof Memory m) {
            return new LongPointer(1).put(0, m.address());
        }
        if (arg instanceof Long l) {
            return new LongPointer(1).put(0, l);
        }
        if (arg instanceof Integer i) {
            return new IntPointer(1).put(0, i);
        }
        if (arg instanceof Float f) {
            return new FloatPointer(1).put(0, f);
        }
        throw new IllegalArgumentException("kernel " + name + ": unsupported argument type "
                + (arg == null ? "null" : arg.getClass().getSimpleName()));
    }
}
