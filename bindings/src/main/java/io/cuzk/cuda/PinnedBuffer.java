package io.cuzk.cuda;

import io.cuzk.internal.CudaLibrary;
import io.cuzk.internal.ffi.cudart_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.apache.commons.lang3.Validate;

/**
 * Page-locked host memory (cudaHostAlloc), which the GPU copies at full speed and asynchronously.
 * Its segment belongs to the arena given at allocation: closing the arena calls cudaFreeHost and
 * makes the segment unusable; {@link #close()} closes a buffer made with its own arena.
 */
public final class PinnedBuffer implements AutoCloseable {
    private final MemorySegment segment;
    private final Arena own;

    private PinnedBuffer(MemorySegment segment, Arena own) {
        this.segment = segment;
        this.own = own;
    }

    /** bytes of pinned memory whose lifetime is the arena's (freed with cudaFreeHost when it closes). */
    public static PinnedBuffer allocate(Arena arena, long bytes) {
        Validate.isTrue(bytes > 0, "a pinned buffer needs a positive size");
        MemorySegment raw = CudaRuntime.pointerOut(p -> cudart_h.cudaHostAlloc(p, bytes, cudart_h.cudaHostAllocPortable()),
                "cudaHostAlloc(" + bytes + ")");
        MemorySegment s = raw.reinterpret(bytes, arena, p -> cudart_h.cudaFreeHost(p));
        return new PinnedBuffer(s, null);
    }

    /** bytes of pinned memory freed by {@link #close()}. */
    public static PinnedBuffer allocate(long bytes) {
        CudaLibrary.require();
        Arena a = Arena.ofShared();
        try {
            PinnedBuffer b = allocate(a, bytes);
            return new PinnedBuffer(b.segment, a);
        } catch (RuntimeException e) {
            a.close();
            throw e;
        }
    }

    /** The host memory. */
    public MemorySegment segment() {
        return segment;
    }

    @Override
    public void close() {
        if (own != null && own.scope().isAlive()) {
            own.close();
        }
    }
}
