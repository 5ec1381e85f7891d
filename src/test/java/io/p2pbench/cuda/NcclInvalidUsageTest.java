package io.p2pbench.cuda;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** NCCL's refusal of two ranks on one GPU is told by its result code, not by words. */
class NcclInvalidUsageTest {
    @Test
    void theResultCodeDecides() {
        int invalidUsage = 5; // ncclInvalidUsage in nccl.h
        assertTrue(NcclRank.invalidUsage(new CudaException("ncclCommInitRank", "", invalidUsage,
                NcclRank.resultName(invalidUsage), "invalid usage")));
        assertFalse(NcclRank.invalidUsage(new CudaException("cudaSetDevice", "", invalidUsage,
                "cudaErrorInvalidValue", "a CUDA error with the same number")));
    }
}
