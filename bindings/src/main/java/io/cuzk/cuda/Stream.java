package io.cuzk.cuda;

import io.cuzk.internal.ffi.cudart_h;
import java.lang.foreign.MemorySegment;

/**
 * A non-blocking CUDA stream on one device. Work queued on it runs in order; {@link #close()}
 * waits for it, then destroys the stream.
 */
public final class Stream implements AutoCloseable {
    private final Device device;
    private final MemorySegment handle;
    private boolean closed;

    private Stream(Device device, MemorySegment handle) {
        this.device = device;
        this.handle = handle;
    }

    public static Stream create(Device device) {
        device.makeCurrent();
        MemorySegment h = CudaRuntime.pointerOut(p -> cudart_h.cudaStreamCreateWithFlags(p, cudart_h.cudaStreamNonBlocking()),
                "cudaStreamCreateWithFlags");
        return new Stream(device, h);
    }

    public Device device() {
        return device;
    }

    /** The cudaStream_t. */
    public MemorySegment handle() {
        if (closed) {
            throw new IllegalStateException("the stream is closed");
        }
        return handle;
    }

    /** False once closed. */
    public synchronized boolean open() {
        return !closed;
    }

    /** Waits for everything queued so far. */
    public void synchronize() {
        device.makeCurrent();
        CudaRuntime.check(cudart_h.cudaStreamSynchronize(handle()), "cudaStreamSynchronize");
    }

    /** Whether everything queued so far has run. */
    public boolean idle() {
        int r = cudart_h.cudaStreamQuery(handle());
        if (r == cudart_h.cudaErrorNotReady()) {
            return false;
        }
        CudaRuntime.check(r, "cudaStreamQuery");
        return true;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        device.makeCurrent();
        CudaRuntime.check(cudart_h.cudaStreamSynchronize(handle), "cudaStreamSynchronize");
        closed = true;
        CudaRuntime.check(cudart_h.cudaStreamDestroy(handle), "cudaStreamDestroy");
    }
}
