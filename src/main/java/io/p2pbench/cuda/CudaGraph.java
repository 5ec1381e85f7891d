package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import java.util.ArrayList;
import java.util.List;
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

    /**
     * Captures what {@code work} enqueues on {@code origin} and on every stream of {@code joined} (streams of any GPU)
     * as one graph: inside the capture, every joined stream first waits for {@code origin} (the fork), and at the end
     * {@code origin} waits for every joined stream (the join), so a launch of the graph on {@code origin} runs all of
     * it and ends when all of it has. Events recorded and waited for inside {@code work} become the graph's edges.
     * Their owners must not wait on them again outside a capture before recording them anew: CUDA refuses a wait on an
     * event last recorded in a capture.
     */
    public static CudaGraph capture(CudaStream origin, List<CudaStream> joined, Runnable work) {
        List<CudaEvent> events = new ArrayList<>();
        CudaGraph graph;
        try {
            CudaEvent fork = CudaEvent.ordering(origin.device());
            events.add(fork);
            for (CudaStream s : joined) {
                events.add(CudaEvent.ordering(s.device()));
            }
            graph = capture(origin, () -> {
                fork.record(origin);
                for (CudaStream s : joined) {
                    s.waitFor(fork);
                }
                RuntimeException failed = null;
                try {
                    work.run();
                } catch (RuntimeException e) {
                    failed = e;
                }
                // Join even after a failure, so that ending the capture on the origin ends it on every stream.
                for (int i = 0; i < joined.size(); i++) {
                    try {
                        events.get(i + 1).record(joined.get(i));
                        origin.waitFor(events.get(i + 1));
                    } catch (RuntimeException e) {
                        if (failed == null) {
                            failed = e;
                        } else {
                            failed.addSuppressed(e);
                        }
                    }
                }
                if (failed != null) {
                    throw failed;
                }
            });
        } catch (RuntimeException e) {
            throw Resources.closeAfterFailure(e, events);
        }
        try {
            Resources.closeReversed(events); // the graph keeps the edges, not the events
        } catch (RuntimeException e) {
            throw Resources.closeAfterFailure(e, graph);
        }
        return graph;
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
