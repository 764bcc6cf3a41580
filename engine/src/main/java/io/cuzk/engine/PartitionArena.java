package io.cuzk.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The arena of one partition: everything the partition allocates comes from pooled blocks, viewed
 * through a scope of its own. Closing it first closes the scope, so every segment it handed out
 * becomes unusable (a late access throws instead of touching the next owner's data), then gives
 * the blocks back to the pool. Closing fails with {@link IllegalStateException}, and keeps the
 * blocks, while a native call still uses one of its segments.
 */
public final class PartitionArena implements Arena {
    private final SlabPool pool;
    private final Arena scope = Arena.ofShared();
    private final List<MemorySegment> blocks = new ArrayList<>();
    private long bytes;

    PartitionArena(SlabPool pool) {
        this.pool = pool;
    }

    /** Zeroed memory of byteSize bytes (alignment up to 4096) from a pooled block. */
    @Override
    public synchronized MemorySegment allocate(long byteSize, long byteAlignment) {
        if (byteAlignment <= 0 || byteAlignment > 4096 || Long.bitCount(byteAlignment) != 1) {
            throw new IllegalArgumentException("alignment must be a power of two up to 4096: " + byteAlignment);
        }
        if (!scope.scope().isAlive()) {
            throw new IllegalStateException("the partition arena is closed");
        }
        MemorySegment block = pool.take(Math.max(1, byteSize));
        blocks.add(block);
        bytes += block.byteSize();
        MemorySegment view = block.asSlice(0, byteSize).reinterpret(scope, null);
        view.fill((byte) 0);
        return view;
    }

    @Override
    public MemorySegment.Scope scope() {
        return scope.scope();
    }

    /** Bytes of the blocks this arena holds. */
    public synchronized long byteSize() {
        return bytes;
    }

    @Override
    public synchronized void close() {
        scope.close(); // throws if a native call still holds one of the segments
        for (MemorySegment b : blocks) {
            pool.give(b);
        }
        blocks.clear();
        bytes = 0;
    }
}
