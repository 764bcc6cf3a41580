package io.cuzk.engine;

import io.cuzk.HostMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

/** Off-heap blocks, each in its own shared arena, closed when the block is freed. */
final class OffHeapAllocator implements SlabAllocator {
    private final ConcurrentHashMap<Long, Arena> arenas = new ConcurrentHashMap<>();

    @Override
    public MemorySegment allocate(long bytes) {
        Arena a = Arena.ofShared();
        // page-aligned; large blocks in huge pages (HostMemory), whose first touch is much cheaper
        MemorySegment s = bytes >= HostMemory.HUGE_MIN ? HostMemory.allocate(a, bytes) : a.allocate(bytes, 4096);
        arenas.put(s.address(), a);
        return s;
    }

    @Override
    public void free(MemorySegment block) {
        Arena a = arenas.remove(block.address());
        if (a == null) {
            throw new IllegalArgumentException("not a block of this allocator: " + block);
        }
        a.close();
    }

    @Override
    public boolean pinned() {
        return false;
    }
}
