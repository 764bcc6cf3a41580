package io.cuzk.cuda;

import io.cuzk.internal.ffi.cudart_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A CUDA event: recorded on a stream, waited for, and timed against another event. */
public final class Event implements AutoCloseable {
    private final Device device;
    private final MemorySegment handle;
    private boolean closed;

    private Event(Device device, MemorySegment handle) {
        this.device = device;
        this.handle = handle;
    }

    /** An event that can time (timing = true) or only synchronise. */
    public static Event create(Device device, boolean timing) {
        device.makeCurrent();
        int flags = cudart_h.cudaEventBlockingSync() | (timing ? 0 : cudart_h.cudaEventDisableTiming());
        return new Event(device, CudaRuntime.pointerOut(p -> cudart_h.cudaEventCreateWithFlags(p, flags), "cudaEventCreateWithFlags"));
    }

    public MemorySegment handle() {
        if (closed) {
            throw new IllegalStateException("the event is closed");
        }
        return handle;
    }

    /** Records the event at the current end of the stream's work. */
    public void record(Stream stream) {
        device.makeCurrent();
        CudaRuntime.check(cudart_h.cudaEventRecord(handle(), stream.handle()), "cudaEventRecord");
    }

    /** Waits until the recorded work is done (the thread sleeps, it does not spin). */
    public void synchronize() {
        CudaRuntime.check(cudart_h.cudaEventSynchronize(handle()), "cudaEventSynchronize");
    }

    public boolean done() {
        int r = cudart_h.cudaEventQuery(handle());
        if (r == cudart_h.cudaErrorNotReady()) {
            return false;
        }
        CudaRuntime.check(r, "cudaEventQuery");
        return true;
    }

    /** Milliseconds of device time between two recorded, completed events. */
    public static float elapsedMillis(Event start, Event end) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ms = a.allocate(ValueLayout.JAVA_FLOAT);
            CudaRuntime.check(cudart_h.cudaEventElapsedTime(ms, start.handle(), end.handle()), "cudaEventElapsedTime");
            return ms.get(ValueLayout.JAVA_FLOAT, 0);
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            CudaRuntime.check(cudart_h.cudaEventDestroy(handle), "cudaEventDestroy");
        }
    }
}
