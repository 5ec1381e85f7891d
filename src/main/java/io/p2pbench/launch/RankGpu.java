package io.p2pbench.launch;

/**
 * Which GPU a rank uses: local rank {@code i} takes the {@code i}-th GPU this process sees, or, where the
 * launcher gave each process one GPU through CUDA_VISIBLE_DEVICES (srun --gpus-per-task=1, a script), the one it
 * sees. Anything else is a rank count that does not fit the GPUs and is refused with one line.
 *
 * @param device the CUDA device ordinal in this process
 * @param how how it was chosen, for the rank's first line
 */
public record RankGpu(int device, String how) {
    /**
     * Binds the rank {@code launch} describes, on {@code host}, seeing {@code visible} GPUs with
     * CUDA_VISIBLE_DEVICES={@code cudaVisibleDevices} (null: unset).
     *
     * @throws LaunchException naming the counts and what would be accepted
     */
    public static RankGpu bind(LaunchEnvironment launch, String host, int visible, String cudaVisibleDevices) {
        int local = launch.localWorldSize();
        String cvd = cudaVisibleDevices == null ? "unset" : cudaVisibleDevices;
        if (visible < 1) {
            throw new LaunchException("rank " + launch.rank() + " on " + host + " sees no GPU (CUDA_VISIBLE_DEVICES="
                    + cvd + "); give every rank a GPU");
        }
        boolean onePerProcess = cudaVisibleDevices != null && !cudaVisibleDevices.isBlank()
                && cudaVisibleDevices.split(",").length == 1;
        if (visible == 1 && onePerProcess) {
            return new RankGpu(0, "the one GPU CUDA_VISIBLE_DEVICES=" + cudaVisibleDevices.trim() + " leaves visible");
        }
        if (visible == local) {
            return new RankGpu(launch.localRank(), "local rank " + launch.localRank() + " of " + local
                    + " takes visible GPU " + launch.localRank());
        }
        throw new LaunchException(host + " runs " + local + (local == 1 ? " rank" : " ranks") + " ("
                + launch.launcher().variable(3) + "=" + local + ", " + launch.launcher().label() + ") but rank "
                + launch.rank() + " sees " + visible + (visible == 1 ? " GPU" : " GPUs") + " (CUDA_VISIBLE_DEVICES="
                + cvd + "); start one rank per GPU (" + visible + " per host), or give each rank one GPU with "
                + "CUDA_VISIBLE_DEVICES (srun --gpus-per-task=1 does; ranks naming the same GPU share it)");
    }
}
