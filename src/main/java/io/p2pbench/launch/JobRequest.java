package io.p2pbench.launch;

import io.p2pbench.collective.BusBandwidth.Operation;
import io.p2pbench.cuda.Nccl.DataType;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What a job of several processes measures, as {@code p2pbench run} was asked (the same in every rank).
 *
 * @param command the command line, for the manifest
 * @param preset the preset name, for the manifest
 * @param out the results root ({@code --out}); the job folder and the result folder go under it
 * @param ipcSweepSizes sizes of the CUDA IPC copy between the first two ranks of each host
 * @param ipcMatrixSize the size of the CUDA IPC copy between every ordered pair of ranks of a host
 * @param collectiveSizes nccl-tests sizes of the NCCL collectives
 * @param collectiveTypes element types of the NCCL collectives
 * @param operations the NCCL collectives
 * @param ipc whether CUDA IPC copies are measured ({@code --paths IPC})
 * @param nccl whether NCCL collectives are measured ({@code --paths NCCL})
 * @param warmupBatches untimed batches before the measured ones
 * @param batches measured batches per entry
 */
public record JobRequest(String command, String preset, Path out, List<Long> ipcSweepSizes, long ipcMatrixSize,
                         List<Long> collectiveSizes, Set<DataType> collectiveTypes, Set<Operation> operations,
                         boolean ipc, boolean nccl, int warmupBatches, int batches) {
    /** The path names {@code --paths} accepts under a launcher. */
    public static final List<String> PATHS = List.of("IPC", "NCCL");

    public JobRequest {
        ipcSweepSizes = List.copyOf(ipcSweepSizes);
        collectiveSizes = List.copyOf(collectiveSizes);
        collectiveTypes = Set.copyOf(collectiveTypes);
        operations = Set.copyOf(operations);
        if (batches < 1 || warmupBatches < 0) {
            throw new IllegalArgumentException("batches must be 1 or more and warm-up batches 0 or more, were "
                    + batches + " and " + warmupBatches);
        }
    }
}
