package io.p2pbench.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2pbench.partition.StepBatch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The executor's CPU side: the decode sizes it captures and how a scheduler's shape becomes a step's batch. */
class PartitionStepExecutorTest {
    @Test
    void decodeBucketsAreVllmsSizesUpToTheLargestBatch() {
        assertEquals(List.of(1), PartitionStepExecutor.decodeBuckets(1));
        assertEquals(List.of(1, 2, 4, 6), PartitionStepExecutor.decodeBuckets(6));
        assertEquals(List.of(1, 2, 4, 8), PartitionStepExecutor.decodeBuckets(8));
        assertEquals(List.of(1, 2, 4, 8, 16, 24, 30), PartitionStepExecutor.decodeBuckets(30));
    }

    @Test
    void aShapeKeepsItsCountsAndADecodeSequenceSeesAtLeastItsNewToken() {
        assertEquals(new StepBatch(3, 300, 1, 128, 64),
                PartitionStepExecutor.batchOf(new StepShape(3, 300, 1, 128, 64)));
        assertEquals(new StepBatch(4, 4, 0, 0, 0), PartitionStepExecutor.batchOf(new StepShape(4, 0, 0, 0, 0)));
    }
}
