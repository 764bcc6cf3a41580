package io.cuzk.cuda;

import io.cuzk.internal.ffi.cudart_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.apache.commons.lang3.Validate;

/**
 * Device memory. {@link #allocate} takes it from the device's stream-ordered memory pool
 * (cudaMallocAsync) on a stream, and {@link #close()} gives it back on the same stream
 * (cudaFreeAsync), so neither waits for the device nor calls cudaMalloc; {@link #allocate(Arena,
 * Stream, long)} ties the buffer to an arena instead; {@link #allocateSync}
 * uses cudaMalloc and cudaFree. The device pointer is not host memory: it is exposed as an address
 * only, for passing to kernels.
 */
public final class DeviceBuffer implements AutoCloseable {
    private final Device device;
    private final Stream stream;
    private final MemorySegment pointer;
    private final long bytes;
    private boolean closed;

    private DeviceBuffer(Device device, Stream stream, MemorySegment pointer, long bytes) {
        this.device = device;
        this.stream = stream;
        this.pointer = pointer;
        this.bytes = bytes;
    }

    /** bytes of device memory from the pool, ordered on stream. */
    public static DeviceBuffer allocate(Stream stream, long bytes) {
        Validate.isTrue(bytes > 0, "a device buffer needs a positive size");
        stream.device().makeCurrent();
        MemorySegment p = CudaRuntime.pointerOut(out -> cudart_h.cudaMallocAsync(out, bytes, stream.handle()), "cudaMallocAsync(" + bytes + ")");
        return new DeviceBuffer(stream.device(), stream, p, bytes);
    }

    /**
     * bytes of device memory from the pool whose lifetime is the arena's: closing the arena frees it
     * on the stream (close() frees it earlier).
     */
    public static DeviceBuffer allocate(Arena arena, Stream stream, long bytes) {
        DeviceBuffer b = allocate(stream, bytes);
        MemorySegment.ofAddress(b.pointer.address()).reinterpret(arena, p -> b.closeQuietly());
        return b;
    }

    /** For arena cleanup: frees on the stream while it lives, else synchronously; never throws. */
    private synchronized void closeQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        device.makeCurrent();
        if (stream != null && stream.open()) {
            cudart_h.cudaFreeAsync(pointer, stream.handle());
        } else {
            cudart_h.cudaFree(pointer);
        }
    }

    /** bytes of device memory from cudaMalloc (synchronous). */
    public static DeviceBuffer allocateSync(Device device, long bytes) {
        Validate.isTrue(bytes > 0, "a device buffer needs a positive size");
        device.makeCurrent();
        MemorySegment p = CudaRuntime.pointerOut(out -> cudart_h.cudaMalloc(out, bytes), "cudaMalloc(" + bytes + ")");
        return new DeviceBuffer(device, null, p, bytes);
    }

    /** The device address. */
    public MemorySegment pointer() {
        if (closed) {
            throw new IllegalStateException("the device buffer is freed");
        }
        return pointer;
    }

    public long byteSize() {
        return bytes;
    }

    /** Queues a copy of host memory (pinned for an asynchronous copy) into this buffer at offset. */
    public void copyFrom(MemorySegment host, long offset, Stream on) {
        Validate.isTrue(offset >= 0 && offset + host.byteSize() <= bytes, "the copy overruns the device buffer");
        device.makeCurrent();
        CudaRuntime.check(cudart_h.cudaMemcpyAsync(MemorySegment.ofAddress(pointer().address() + offset), host, host.byteSize(),
                cudart_h.cudaMemcpyHostToDevice(), on.handle()), "cudaMemcpyAsync(host to device)");
    }

    /** Queues a copy of this buffer, from offset, into host memory. */
    public void copyTo(MemorySegment host, long offset, Stream on) {
        Validate.isTrue(offset >= 0 && offset + host.byteSize() <= bytes, "the copy overruns the device buffer");
        device.makeCurrent();
        CudaRuntime.check(cudart_h.cudaMemcpyAsync(host, MemorySegment.ofAddress(pointer().address() + offset), host.byteSize(),
                cudart_h.cudaMemcpyDeviceToHost(), on.handle()), "cudaMemcpyAsync(device to host)");
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        device.makeCurrent();
        if (stream != null) {
            CudaRuntime.check(cudart_h.cudaFreeAsync(pointer, stream.handle()), "cudaFreeAsync");
        } else {
            CudaRuntime.check(cudart_h.cudaFree(pointer), "cudaFree");
        }
    }
}
