package io.cuzk.engine;

import java.lang.foreign.MemorySegment;

/**
 * Where the slab pool's memory comes from: plain off-heap memory on the CPU, page-locked (pinned)
 * host memory where a GPU backend is in use, so that copies to the device run at full speed.
 */
public interface SlabAllocator {
    /** A new zeroed block of exactly bytes bytes, 4096-byte aligned. */
    MemorySegment allocate(long bytes);

    /** Gives a block from {@link #allocate} back to the system. */
    void free(MemorySegment block);

    /** Whether the blocks are page-locked host memory. */
    boolean pinned();

    /** Plain off-heap memory, one shared arena per block so that each can be freed on its own. */
    static SlabAllocator offHeap() {
        return new OffHeapAllocator();
    }
}
