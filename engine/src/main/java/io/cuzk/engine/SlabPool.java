package io.cuzk.engine;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reusable off-heap (or pinned) blocks in power-of-two size classes from 64 KiB. Partition arenas
 * take blocks from here and give them back when they close, so proving thousands of partitions
 * allocates from the system only until the pool holds the working set: no per-partition heap
 * churn and nothing to trim. Idle blocks beyond {@code maxIdleBytes} are freed at once.
 * Thread-safe and lock-free (one concurrent deque per size class).
 */
public final class SlabPool implements AutoCloseable {
    static final int MIN_CLASS = 16; // 64 KiB
    static final int MAX_CLASS = 46; // 64 TiB

    private final SlabAllocator allocator;
    private final long maxIdleBytes;
    @SuppressWarnings({"unchecked", "rawtypes"})
    private final ConcurrentLinkedDeque<MemorySegment>[] idle = new ConcurrentLinkedDeque[MAX_CLASS + 1];
    private final AtomicLong idleBytes = new AtomicLong();
    private final AtomicLong allocatedBytes = new AtomicLong();
    private final AtomicLong outstandingBlocks = new AtomicLong();
    private final AtomicLong systemAllocations = new AtomicLong();
    private volatile boolean closed;

    public SlabPool(SlabAllocator allocator, long maxIdleBytes) {
        this.allocator = allocator;
        this.maxIdleBytes = maxIdleBytes;
        for (int i = 0; i <= MAX_CLASS; i++) {
            idle[i] = new ConcurrentLinkedDeque<>();
        }
    }

    static int sizeClass(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("block size must be positive: " + bytes);
        }
        int c = 64 - Long.numberOfLeadingZeros(bytes - 1);
        if (c > MAX_CLASS) {
            throw new IllegalArgumentException("block of " + bytes + " bytes is too large");
        }
        return Math.max(MIN_CLASS, c);
    }

    /** A block of at least bytes bytes (its size is the size class); contents are not zeroed. */
    MemorySegment take(long bytes) {
        if (closed) {
            throw new IllegalStateException("the slab pool is closed");
        }
        int c = sizeClass(bytes);
        MemorySegment s = idle[c].pollFirst();
        if (s != null) {
            idleBytes.addAndGet(-s.byteSize());
        } else {
            s = allocator.allocate(1L << c);
            allocatedBytes.addAndGet(s.byteSize());
            systemAllocations.incrementAndGet();
        }
        outstandingBlocks.incrementAndGet();
        return s;
    }

    /** Gives a block back: kept for reuse, or freed if the pool holds enough idle memory. */
    void give(MemorySegment block) {
        outstandingBlocks.decrementAndGet();
        long size = block.byteSize();
        boolean keep = false;
        if (!closed) {
            keep = idleBytes.addAndGet(size) <= maxIdleBytes;
            if (!keep) {
                idleBytes.addAndGet(-size);
            }
        }
        if (keep) {
            idle[sizeClass(size)].addFirst(block);
            if (closed) {
                drain(); // the pool closed meanwhile
            }
            return;
        }
        allocatedBytes.addAndGet(-size);
        allocator.free(block);
    }

    /** A new arena whose memory comes from this pool. */
    public PartitionArena newArena() {
        return new PartitionArena(this);
    }

    /** Bytes held from the system, in use or idle. */
    public long allocatedBytes() {
        return allocatedBytes.get();
    }

    /** Bytes idle in the pool, ready for reuse. */
    public long idleBytes() {
        return idleBytes.get();
    }

    /** Blocks handed out and not yet given back: zero once every arena is closed. */
    public long outstandingBlocks() {
        return outstandingBlocks.get();
    }

    /** How many blocks were ever allocated from the system (reuse keeps this flat). */
    public long systemAllocations() {
        return systemAllocations.get();
    }

    /** Bytes of page-locked memory held (all of it when the allocator pins). */
    public long pinnedBytes() {
        return allocator.pinned() ? allocatedBytes.get() : 0;
    }

    public boolean pinned() {
        return allocator.pinned();
    }

    private void drain() {
        for (ConcurrentLinkedDeque<MemorySegment> q : idle) {
            MemorySegment s;
            while ((s = q.pollFirst()) != null) {
                idleBytes.addAndGet(-s.byteSize());
                allocatedBytes.addAndGet(-s.byteSize());
                allocator.free(s);
            }
        }
    }

    /** Frees the idle blocks; blocks still in use are freed when their arenas close. */
    @Override
    public void close() {
        closed = true;
        drain();
    }
}
