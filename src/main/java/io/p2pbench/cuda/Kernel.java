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
        return new Launch(gridX, 1, 1, blockX, args);
    }

    /** As {@link #prepare(int, int, Object...)}, with a three-dimensional grid. */
    public Launch prepare(int gridX, int gridY, int gridZ, int blockX, Object... args) {
        return new Launch(gridX, gridY, gridZ, blockX, args);
    }

    /**
     * A launch, enqueued any number of times; close it to free the parameters. Its grid and
     * arguments can be changed between enqueues ({@link #grid}, {@link #set}): a launch captured
     * into a CUDA graph keeps the values it was captured with.
     */
    public final class Launch implements AutoCloseable {
        private int gridX;
        private int gridY;
        private int gridZ;
        private final int blockX;
        private final Pointer[] values;
        private final PointerPointer<Pointer> params;
        private boolean closed;

        private Launch(int gridX, int gridY, int gridZ, int blockX, Object... args) {
            if (blockX <= 0) {
                throw new IllegalArgumentException("kernel " + name + ": block " + blockX + " must be positive");
            }
            grid(gridX, gridY, gridZ);
            this.blockX = blockX;
            this.values = new Pointer[args.length];
            this.params = new PointerPointer<>(Math.max(1, args.length));
            for (int i = 0; i < args.length; i++) {
                values[i] = box(args[i]);
                params.put(i, values[i]);
            }
        }

        /** Sets the grid of later enqueues; every dimension must be positive. */
        public Launch grid(int x, int y, int z) {
            if (x <= 0 || y <= 0 || z <= 0) {
                throw new IllegalArgumentException("kernel " + name + ": grid " + x + " x " + y + " x " + z
                        + " must be positive");
            }
            gridX = x;
            gridY = y;
            gridZ = z;
            return this;
        }

        /** Replaces argument {@code index} for later enqueues; the value must have the argument's type. */
        public Launch set(int index, Object arg) {
            Pointer p = values[index];
            if (arg instanceof Memory m && p instanceof LongPointer l) {
                l.put(0, m.address());
            } else if (arg instanceof Long v && p instanceof LongPointer l) {
                l.put(0, v);
            } else if (arg instanceof Integer v && p instanceof IntPointer ip) {
                ip.put(0, v);
            } else if (arg instanceof Float v && p instanceof FloatPointer f) {
                f.put(0, v);
            } else {
                throw new IllegalArgumentException("kernel " + name + ": argument " + index + " cannot take "
                        + (arg == null ? "null" : arg.getClass().getSimpleName()));
            }
            return this;
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
            int result = cuLaunchKernel(function, gridX, gridY, gridZ, blockX, 1, 1, 0, stream.handle(), params,
                    (PointerPointer<?>) null);
            if (result != CUDA_SUCCESS) {
                Cuda.checkDriver(result, "cuLaunchKernel", "kernel", name, "device", module.device(),
                        "grid", gridX + "x" + gridY + "x" + gridZ, "block", blockX);
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
