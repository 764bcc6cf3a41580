package io.cuzk.engine;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Reusable off-heap (or pinned) blocks in power-of-two size classes from 64 KiB. Partition arenas
 * take blocks from here and give them back when they close, so proving thousands of partitions
 * allocates from the system only until the pool holds the working set: no per-partition heap
 * churn and nothing to trim. Idle blocks beyond {@code maxIdleBytes} are freed at once, and blocks
 * idle longer than the idle release time are given back to the system by a background thread, so
 * that a burst's peak is not held forever. This is what replaces {@code malloc_trim}: the reaper
 * frees whole blocks it took out of a lock-free deque, and no worker, finalizer or dispatcher ever
 * waits for it. Thread-safe and lock-free (one concurrent deque per size class, newest blocks at
 * the front, reused first; the oldest at the back, given back first).
 */
public final class SlabPool implements AutoCloseable {
    static final int MIN_CLASS = 16; // 64 KiB
    static final int MAX_CLASS = 46; // 64 TiB

    /** An idle block and since when (System.nanoTime()) it is idle. */
    private record Idle(MemorySegment block, long since) {}

    private final SlabAllocator allocator;
    private final long maxIdleBytes;
    private final long idleReleaseNanos;
    @SuppressWarnings({"unchecked", "rawtypes"})
    private final ConcurrentLinkedDeque<Idle>[] idle = new ConcurrentLinkedDeque[MAX_CLASS + 1];
    private final AtomicLong idleBytes = new AtomicLong();
    private final AtomicLong allocatedBytes = new AtomicLong();
    private final AtomicLong peakBytes = new AtomicLong();
    private final AtomicLong returnedBytes = new AtomicLong();
    private final AtomicLong returnedBlocks = new AtomicLong();
    private final AtomicLong outstandingBlocks = new AtomicLong();
    private final AtomicLong systemAllocations = new AtomicLong();
    private final Thread reaper;
    private volatile boolean closed;

    /** A pool that keeps idle blocks (up to maxIdleBytes) until closed. */
    public SlabPool(SlabAllocator allocator, long maxIdleBytes) {
        this(allocator, maxIdleBytes, null);
    }

    /**
     * A pool that keeps idle blocks (up to maxIdleBytes) for at most idleRelease (null: until
     * closed), checked by a daemon thread a few times per idleRelease and at least once a second.
     */
    public SlabPool(SlabAllocator allocator, long maxIdleBytes, Duration idleRelease) {
        this.allocator = allocator;
        this.maxIdleBytes = maxIdleBytes;
        this.idleReleaseNanos = idleRelease == null ? -1 : idleRelease.toNanos();
        for (int i = 0; i <= MAX_CLASS; i++) {
            idle[i] = new ConcurrentLinkedDeque<>();
        }
        if (idleRelease != null) {
            long period = Math.max(1_000_000L, Math.min(1_000_000_000L, idleReleaseNanos / 4));
            reaper = Thread.ofPlatform().daemon().name("cuzk-pool-reaper").start(() -> reap(period));
        } else {
            reaper = null;
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
        Idle i = idle[c].pollFirst();
        MemorySegment s;
        if (i != null) {
            s = i.block();
            idleBytes.addAndGet(-s.byteSize());
        } else {
            s = allocator.allocate(1L << c);
            peakBytes.accumulateAndGet(allocatedBytes.addAndGet(s.byteSize()), Math::max);
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
            idle[sizeClass(size)].addFirst(new Idle(block, System.nanoTime()));
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

    /** The most bytes the pool ever held from the system. */
    public long peakBytes() {
        return peakBytes.get();
    }

    /** Bytes of idle blocks given back to the system after their idle time. */
    public long returnedBytes() {
        return returnedBytes.get();
    }

    /** Idle blocks given back to the system after their idle time. */
    public long returnedBlocks() {
        return returnedBlocks.get();
    }

    /**
     * Gives back to the system every block idle for at least idleNanos; returns the bytes given
     * back. Each block is taken out of its deque first (from the back, where the oldest are), so a
     * worker taking blocks from the front never waits and never gets a freed one.
     */
    long releaseIdle(long idleNanos) {
        long now = System.nanoTime();
        long released = 0;
        for (ConcurrentLinkedDeque<Idle> q : idle) {
            Idle oldest;
            while ((oldest = q.peekLast()) != null && now - oldest.since() >= idleNanos) {
                Idle taken = q.pollLast();
                if (taken == null) {
                    break;
                }
                if (now - taken.since() < idleNanos) {
                    q.addLast(taken); // a newer block reached the back meanwhile: keep it, in its place
                    if (closed) {
                        drain(); // the pool closed meanwhile
                    }
                    break;
                }
                long size = taken.block().byteSize();
                idleBytes.addAndGet(-size);
                allocator.free(taken.block());
                returnedBytes.addAndGet(size);
                returnedBlocks.incrementAndGet();
                // last, so that whoever sees the allocated bytes fall also sees this block among
                // the returned ones (a reader polling allocatedBytes() down to 0 once saw three of
                // four returned)
                allocatedBytes.addAndGet(-size);
                released += size;
            }
        }
        return released;
    }

    private void reap(long periodNanos) {
        while (!closed) {
            LockSupport.parkNanos(this, periodNanos);
            if (!closed) {
                try {
                    releaseIdle(idleReleaseNanos);
                } catch (RuntimeException e) {
                    System.getLogger("io.cuzk.engine").log(System.Logger.Level.WARNING,
                            "cuzk engine: giving idle pool memory back failed: " + e);
                }
            }
        }
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
        for (ConcurrentLinkedDeque<Idle> q : idle) {
            Idle i;
            while ((i = q.pollFirst()) != null) {
                MemorySegment s = i.block();
                idleBytes.addAndGet(-s.byteSize());
                allocatedBytes.addAndGet(-s.byteSize());
                allocator.free(s);
            }
        }
    }

    /** Frees the idle blocks and stops the reaper; blocks still in use are freed when their arenas close. */
    @Override
    public void close() {
        closed = true;
        if (reaper != null) {
            LockSupport.unpark(reaper);
        }
        drain();
    }
}
