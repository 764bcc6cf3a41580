package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_host_config;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.apache.commons.lang3.Validate;

/**
 * Large off-heap buffers for the kernels' inputs: zero-filled, 64-byte aligned, and freed when
 * their arena closes, like {@link Arena#allocate}. From {@link #NATIVE_MIN} bytes on they come from
 * libcuzk ({@code cuzk_host_alloc}), which zero-fills them natively (an arena zero-fills in a Java
 * loop, slow until it is compiled: a command's first 1.5 MB took milliseconds), and from
 * {@link #HUGE_MIN} bytes on maps them in 2 MiB transparent huge pages where the kernel allows it:
 * a buffer's first touch then costs one page fault per 2 MiB instead of 512. Where a fault is slow
 * (about 10 us on the virtual machines measured in docs/benchmarks.md) that is most of the cost of
 * filling a fresh buffer: 8 MiB took 25-30 ms in 4 KiB pages, under 1 ms in huge pages.
 */
public final class HostMemory {
    /** Buffers from this size on come from libcuzk; smaller ones from the arena. */
    public static final long NATIVE_MIN = 64L << 10;
    /** Buffers from this size on are mapped in huge pages. */
    public static final long HUGE_MIN = 1L << 20;

    private HostMemory() {}

    /** bytes zero-filled bytes, 64-byte aligned (2 MiB aligned from {@link #HUGE_MIN} on, on Linux), freed with arena. */
    public static MemorySegment allocate(Arena arena, long bytes) {
        NativeLibrary.require();
        Validate.notNull(arena, "arena");
        Validate.isTrue(bytes >= 0, "byte count must not be negative: %d", bytes);
        if (bytes < NATIVE_MIN) {
            return arena.allocate(bytes, 64);
        }
        return nativeAllocation(arena, bytes, MemorySegment.NULL);
    }

    /**
     * A copy of src in memory like {@link #allocate}'s (src may have any alignment, such as a
     * section of a memory-mapped file), filled in one pass, freed with arena.
     */
    public static MemorySegment copyOf(Arena arena, MemorySegment src) {
        NativeLibrary.require();
        Validate.notNull(arena, "arena");
        Validate.notNull(src, "src");
        long bytes = src.byteSize();
        if (bytes < NATIVE_MIN || !src.isNative()) {
            MemorySegment copy = allocate(arena, bytes);
            MemorySegment.copy(src, 0, copy, 0, bytes);
            return copy;
        }
        // the downcall keeps src alive while it runs, and refuses a closed or foreign-thread one
        return nativeAllocation(arena, bytes, src);
    }

    private static MemorySegment nativeAllocation(Arena arena, long bytes, MemorySegment copyFrom) {
        // The pointer comes back through 8 bytes of the caller's arena, read as a long: a scratch
        // arena and an address-typed read would cost a command's first call some 15 ms more.
        MemorySegment cfg = arena.allocate(cuzk_host_config.layout().byteSize() + 8, 8);
        cuzk_host_config.bytes(cfg, bytes);
        MemorySegment out = cfg.asSlice(cuzk_host_config.layout().byteSize(), 8);
        Checked.check(cuzk_h.cuzk_host_alloc(cfg, out, copyFrom, MemorySegment.NULL), "cuzk_host_alloc");
        MemorySegment raw = MemorySegment.ofAddress(out.get(ValueLayout.JAVA_LONG, 0));
        try {
            return raw.reinterpret(bytes, arena, s -> free(bytes, s));
        } catch (RuntimeException | Error e) { // a closed arena, or one of another thread
            free(bytes, raw);
            throw e;
        }
    }

    private static void free(long bytes, MemorySegment p) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfg = cuzk_host_config.allocate(a);
            cuzk_host_config.bytes(cfg, bytes);
            cuzk_h.cuzk_host_free(cfg, p, MemorySegment.NULL, MemorySegment.NULL);
        }
    }
}
