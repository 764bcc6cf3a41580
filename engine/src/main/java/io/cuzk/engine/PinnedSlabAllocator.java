package io.cuzk.engine;

import io.cuzk.cuda.PinnedBuffer;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

/** Page-locked host blocks (cudaHostAlloc) for the slab pool where a GPU proves. */
final class PinnedSlabAllocator implements SlabAllocator {
    private final ConcurrentHashMap<Long, PinnedBuffer> blocks = new ConcurrentHashMap<>();

    @Override
    public MemorySegment allocate(long bytes) {
        PinnedBuffer b = PinnedBuffer.allocate(bytes);
        blocks.put(b.segment().address(), b);
        return b.segment();
    }

    @Override
    public void free(MemorySegment block) {
        PinnedBuffer b = blocks.remove(block.address());
        if (b == null) {
            throw new IllegalArgumentException("not a block of this allocator: " + block);
        }
        b.close();
    }

    @Override
    public boolean pinned() {
        return true;
    }
}
