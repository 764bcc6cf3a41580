package io.cuzk.cuda;

import io.cuzk.internal.ffi.cudaPointerAttributes;
import io.cuzk.internal.ffi.cudart_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.apache.commons.lang3.Validate;

/**
 * Copies between ordinary (pageable) host memory and a device through two pinned chunks: while the
 * GPU copies one chunk, the host fills (or empties) the other, so a large upload runs at the
 * pinned rate with one host-side memcpy per chunk, instead of as the driver's synchronous pageable
 * copy. Host memory that is already pinned (cudaHostAlloc, the engine's slabs on a GPU) is copied
 * directly. Not thread-safe: one user at a time; {@link #close()} waits for the copies it queued.
 */
public final class Staging implements AutoCloseable {
    /** The default chunk: large enough that a copy's fixed cost (about 10 us) is under 1%. */
    public static final long DEFAULT_CHUNK = 8L << 20;

    private final Device device;
    private final long chunk;
    private final PinnedBuffer[] buffers = new PinnedBuffer[2];
    private final Event[] copied = new Event[2];

    private Staging(Device device, long chunk) {
        this.device = device;
        this.chunk = chunk;
    }

    /** Two pinned chunks of chunkBytes each for the device. */
    public static Staging create(Device device, long chunkBytes) {
        Validate.notNull(device, "device");
        Validate.isTrue(chunkBytes > 0, "a staging chunk needs a positive size");
        Staging s = new Staging(device, chunkBytes);
        try {
            for (int i = 0; i < 2; i++) {
                s.buffers[i] = PinnedBuffer.allocate(chunkBytes);
                s.copied[i] = Event.create(device, false);
            }
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /** Whether the host memory is page-locked (registered with CUDA), so the GPU can copy it directly. */
    public static boolean isPinned(MemorySegment host) {
        if (host.byteSize() == 0 || !host.isNative()) {
            return false;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attributes = cudaPointerAttributes.allocate(a);
            int rc = cudart_h.cudaPointerGetAttributes(attributes, host);
            if (rc != cudart_h.cudaSuccess()) {
                cudart_h.cudaGetLastError(); // the call's error is not sticky, but clear it for the next check
                return false;
            }
            return cudaPointerAttributes.type(attributes) == cudart_h.cudaMemoryTypeHost();
        }
    }

    /** Queues the copy of host into dst at offset on the stream; returns once host may be changed. */
    public void upload(MemorySegment host, DeviceBuffer dst, long offset, Stream stream) {
        Validate.isTrue(offset >= 0 && offset + host.byteSize() <= dst.byteSize(), "the copy overruns the device buffer");
        if (isPinned(host)) {
            dst.copyFrom(host, offset, stream);
            return;
        }
        int k = 0;
        for (long at = 0; at < host.byteSize(); at += chunk, k ^= 1) {
            long len = Math.min(chunk, host.byteSize() - at);
            copied[k].synchronize(); // the chunk's last copy has left it
            MemorySegment staged = buffers[k].segment().asSlice(0, len);
            MemorySegment.copy(host, at, staged, 0, len);
            dst.copyFrom(staged, offset + at, stream);
            copied[k].record(stream);
        }
        // the host's memory was read in full above; the chunks stay in use until their events pass
    }

    /** Copies src from offset into host, after the work queued on the stream; returns when host holds it. */
    public void download(DeviceBuffer src, long offset, MemorySegment host, Stream stream) {
        Validate.isTrue(offset >= 0 && offset + host.byteSize() <= src.byteSize(), "the copy overruns the device buffer");
        if (isPinned(host)) {
            src.copyTo(host, offset, stream);
            stream.synchronize();
            return;
        }
        long pending = -1; // the host offset of the chunk queued last, not yet copied out
        int k = 0;
        for (long at = 0; at < host.byteSize(); at += chunk, k ^= 1) {
            long len = Math.min(chunk, host.byteSize() - at);
            copied[k].synchronize(); // the chunk was emptied below before it is refilled
            src.copyTo(buffers[k].segment().asSlice(0, len), offset + at, stream);
            copied[k].record(stream);
            if (pending >= 0) {
                drain(k ^ 1, pending, host);
            }
            pending = at;
        }
        if (pending >= 0) {
            drain(k ^ 1, pending, host);
        }
    }

    private void drain(int k, long at, MemorySegment host) {
        copied[k].synchronize();
        long len = Math.min(chunk, host.byteSize() - at);
        MemorySegment.copy(buffers[k].segment(), 0, host, at, len);
    }

    /** Waits for the queued copies, then frees the chunks. */
    @Override
    public void close() {
        for (int i = 0; i < 2; i++) {
            if (copied[i] != null) {
                copied[i].synchronize();
                copied[i].close();
            }
            if (buffers[i] != null) {
                buffers[i].close();
            }
        }
    }

    /** The device the chunks serve. */
    public Device device() {
        return device;
    }
}
