"""The CUDA driver API through ctypes, for the peer-check scripts: libcuda.so.1, one checked call, GPU 0."""
import ctypes as C


class Driver:
    """libcuda.so.1, initialised, with GPU 0 as `dev` (an int)."""

    def __init__(self):
        self.cu = C.CDLL("libcuda.so.1")
        self.ck("cuInit", 0)
        dev = C.c_int()
        self.ck("cuDeviceGet", C.byref(dev), 0)
        self.dev = dev.value

    def ck(self, name, *args):
        """Calls the driver function `name`; exits with its CUresult when that is not CUDA_SUCCESS."""
        r = getattr(self.cu, name)(*args)
        if r != 0:
            raise SystemExit(f"{name} failed: CUresult {r}")

    def primary_context(self):
        """Retains GPU 0's primary context and makes it current; returns it."""
        ctx = C.c_void_p()
        self.ck("cuDevicePrimaryCtxRetain", C.byref(ctx), self.dev)
        self.ck("cuCtxSetCurrent", ctx)
        return ctx
