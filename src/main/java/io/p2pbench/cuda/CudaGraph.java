package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import org.bytedeco.cuda.cudart.CUgraphExec_st;
import org.bytedeco.cuda.cudart.CUgraph_st;

/**
 * An instantiated CUDA graph captured from one stream: {@link #capture} records what {@code work}
 * enqueues on the stream (thread-local capture mode, as serving engines use) instead of running it,
 * and {@link #launch} replays all of it with one call. Kernels, cuBLAS calls and copies on that
 * stream are captured; a call that cannot be captured fails the capture with the CUDA error.
 */
public final class CudaGraph implements AutoCloseable {
    private final int device;
    private CUgraph_st graph;
    private CUgraphExec_st exec;

    private CudaGraph(int device, CUgraph_st graph, CUgraphExec_st exec) {
        this.device = device;
        this.graph = graph;
        this.exec = exec;
    }

    /** Captures what {@code work} enqueues on {@code stream} and instantiates it; nothing runs yet. */
    public static CudaGraph capture(CudaStream stream, Runnable work) {
        int device = stream.device();
        Cuda.setDevice(device);
        Cuda.check(cudaStreamBeginCapture(stream.handle(), cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture",
                "device", device);
        CUgraph_st g = new CUgraph_st();
        RuntimeException failed = null;
        try {
            work.run();
        } catch (RuntimeException e) {
            failed = e;
        }
        Cuda.setDevice(device);
        int status = cudaStreamEndCapture(stream.handle(), g);
        if (failed != null) {
            if (status == cudaSuccess && !g.isNull()) {
                destroyAfterFailure(g, failed, device);
            }
            throw failed;
        }
        Cuda.check(status, "cudaStreamEndCapture", "device", device);
        CUgraphExec_st e = new CUgraphExec_st();
        int inst = cudaGraphInstantiate(e, g, 0L);
        if (inst != cudaSuccess) {
            CudaException instantiate = Cuda.failure(inst, "cudaGraphInstantiate", "device", device);
            destroyAfterFailure(g, instantiate, device);
            throw instantiate;
        }
        return new CudaGraph(device, g, e);
    }

    /** Destroys a graph while {@code cause} is being thrown; a failed destroy is kept on it as suppressed. */
    private static void destroyAfterFailure(CUgraph_st g, RuntimeException cause, int device) {
        int destroyed = cudaGraphDestroy(g);
        if (destroyed != cudaSuccess) {
            cause.addSuppressed(Cuda.failure(destroyed, "cudaGraphDestroy", "device", device));
        }
    }

    /** Enqueues the whole graph on {@code stream} (on the graph's GPU). */
    public void launch(CudaStream stream) {
        if (exec == null) {
            throw new IllegalStateException("graph on GPU " + device + " is closed");
        }
        Cuda.setDevice(device);
        int status = cudaGraphLaunch(exec, stream.handle());
        if (status != cudaSuccess) {
            throw Cuda.failure(status, "cudaGraphLaunch", "device", device);
        }
    }

    @Override
    public void close() {
        Cuda.setDevice(device);
        if (exec != null) {
            CUgraphExec_st e = exec;
            exec = null;
            Cuda.check(cudaGraphExecDestroy(e), "cudaGraphExecDestroy", "device", device);
        }
        if (graph != null) {
            CUgraph_st g = graph;
            graph = null;
            Cuda.check(cudaGraphDestroy(g), "cudaGraphDestroy", "device", device);
        }
    }
}
