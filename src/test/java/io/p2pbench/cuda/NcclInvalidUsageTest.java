package io.p2pbench.cuda;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A failure is told by its library and status code, never by its words: NCCL's refusal of two ranks on one GPU,
 * a CUDA allocation that did not fit (a skip, not a failure), peer access the driver refused.
 */
class NcclInvalidUsageTest {
    @Test
    void theResultCodeOfItsLibraryDecides() {
        int invalidUsage = 5; // ncclInvalidUsage in nccl.h
        assertTrue(NcclRank.invalidUsage(new CudaException(CudaException.Api.NCCL, "ncclCommInitRank", "",
                invalidUsage, NcclRank.resultName(invalidUsage), "invalid usage")));
        assertFalse(NcclRank.invalidUsage(new CudaException("cudaSetDevice", "", invalidUsage,
                "ncclInvalidUsage", "a CUDA error with the same number, even named like NCCL's")));
    }

    @Test
    void outOfMemoryIsCudasCodeTwoFromEitherApiAndNotNcclsSystemError() {
        assertTrue(new CudaException("cudaMalloc", "bytes=1", 2, "cudaErrorMemoryAllocation", "").outOfMemory());
        assertTrue(new CudaException("cuMemAlloc", "bytes=1", 2, "CUDA_ERROR_OUT_OF_MEMORY", "via JCuda")
                .outOfMemory(), "the driver API's name for the same failure (JCuda)");
        assertTrue(CudaException.hostOutOfMemory("malloc", 1).outOfMemory());
        assertFalse(new CudaException(CudaException.Api.NCCL, "ncclAllReduce", "", 2, "ncclSystemError", "")
                .outOfMemory());
        assertTrue(new CudaException("cuCtxEnablePeerAccess", "", 217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "")
                .peerAccessUnsupported());
        assertFalse(CudaException.notAvailable("no driver").outOfMemory());
    }
}
