package io.cuzk.engine;

import io.cuzk.Backend;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import org.apache.commons.lang3.Validate;

/**
 * Engine settings; {@link #builder()} starts from the defaults.
 *
 * @param devices the backends proving runs on, one device each
 * @param workersPerDevice device workers per device (default 2: one prepares while the other's work runs)
 * @param synthesisWorkers partitions synthesized at once
 * @param synthesisThreads native threads per synthesis (0 = all hardware threads)
 * @param finalizers threads assembling proofs and returning memory
 * @param memoryBudgetBytes bytes of partition memory reserved at once (default: half of physical memory)
 * @param maxIdlePoolBytes idle pooled memory kept for reuse
 * @param poolIdleRelease how long a pooled block may stay idle before it is given back to the system
 * @param readyPerWorker ready partitions kept per device worker (0, the default: derived from the
 *     measured synthesis and proving times, see {@link Lookahead})
 * @param keyCacheBytes resident proving keys beyond which idle ones are evicted
 * @param slabAllocator where pooled memory comes from (by default pinned host memory when a device is a GPU)
 * @param shutdownTimeout how long {@link Engine#close()} and {@link Engine#shutdownNow()} wait for the
 *     stages to stop once no job is left (a kernel still running then keeps its memory, keys and
 *     device: they are left to the process instead of being freed under it)
 * @param selfCheck verify every proof against its key's verification key in the finalizers (never
 *     on a device worker, but for a partition a device worker finishes after the engine's
 *     finalizers stopped, at shutdown), failing the partition with a
 *     {@link SelfCheckFailedException} when it does not verify (default off)
 */
public record Config(List<Backend> devices, int workersPerDevice, int synthesisWorkers, int synthesisThreads, int finalizers,
        long memoryBudgetBytes, long maxIdlePoolBytes, Duration poolIdleRelease, int readyPerWorker, long keyCacheBytes,
        SlabAllocator slabAllocator, Duration shutdownTimeout, boolean selfCheck) {

    public Config {
        Validate.notEmpty(devices, "at least one device");
        Validate.noNullElements(devices, "device %d is null");
        // each worker is a thread of its own (a device worker also a stream and pinned buffers): the
        // upper bounds refuse a count that would exhaust the process, not one a machine could use
        Validate.isTrue(devices.size() <= MAX_DEVICES, "at most %d devices: %d", MAX_DEVICES, devices.size());
        Validate.isTrue(workersPerDevice >= 1 && workersPerDevice <= MAX_WORKERS_PER_DEVICE, "workers per device must be 1..%d: %d",
                MAX_WORKERS_PER_DEVICE, workersPerDevice);
        Validate.isTrue(synthesisWorkers >= 1 && synthesisWorkers <= MAX_THREADS, "synthesis workers must be 1..%d: %d", MAX_THREADS,
                synthesisWorkers);
        Validate.isTrue(synthesisThreads >= 0 && synthesisThreads <= MAX_THREADS, "synthesis threads must be 0..%d (0 = all): %d",
                MAX_THREADS, synthesisThreads);
        Validate.isTrue(finalizers >= 1 && finalizers <= MAX_THREADS, "finalizers must be 1..%d: %d", MAX_THREADS, finalizers);
        Validate.isTrue(memoryBudgetBytes > 0, "the memory budget must be positive: %d", memoryBudgetBytes);
        Validate.isTrue(maxIdlePoolBytes >= 0, "the pool's idle bytes must not be negative: %d", maxIdlePoolBytes);
        Validate.isTrue(keyCacheBytes >= 0, "the key cache's size must not be negative: %d", keyCacheBytes);
        Validate.notNull(slabAllocator, "slabAllocator");
        Validate.notNull(poolIdleRelease, "poolIdleRelease");
        Validate.isTrue(!poolIdleRelease.isNegative(), "the pool's idle time must not be negative: %s", poolIdleRelease);
        Validate.isTrue(readyPerWorker >= 0 && readyPerWorker <= MAX_THREADS, "ready partitions per worker must be 0..%d (0 = derived): %d",
                MAX_THREADS, readyPerWorker);
        Validate.notNull(shutdownTimeout, "shutdownTimeout");
        Validate.isTrue(!shutdownTimeout.isNegative(), "the shutdown timeout must not be negative: %s", shutdownTimeout);
        devices = List.copyOf(devices);
    }

    /** The most devices one engine drives. */
    public static final int MAX_DEVICES = 1024;
    /** The most device workers a device gets (the command line's bound too). */
    public static final int MAX_WORKERS_PER_DEVICE = 64;
    /** The most synthesis workers, finalizers, native threads a synthesis and ready partitions a worker. */
    public static final int MAX_THREADS = 4096;

    /** Half of the physical memory, or 4 GiB where it cannot be read. */
    public static long defaultBudget() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(64L << 20, os.getTotalMemorySize() / 2);
        }
        return 4L << 30;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private Builder() {}

        private List<Backend> devices = List.of(Backend.cpu());
        private int workersPerDevice = 2;
        private int synthesisWorkers = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        private int synthesisThreads = 1;
        private int finalizers = 2;
        private long memoryBudgetBytes = defaultBudget();
        private Long maxIdlePoolBytes; // null: the budget
        private Duration poolIdleRelease = Duration.ofSeconds(10);
        private int readyPerWorker;
        private boolean selfCheck;
        private long keyCacheBytes = 8L << 30;
        private SlabAllocator slabAllocator;
        private Duration shutdownTimeout = Duration.ofSeconds(60);

        public Builder devices(List<Backend> v) {
            devices = v;
            return this;
        }

        public Builder workersPerDevice(int v) {
            workersPerDevice = v;
            return this;
        }

        public Builder synthesisWorkers(int v) {
            synthesisWorkers = v;
            return this;
        }

        public Builder synthesisThreads(int v) {
            synthesisThreads = v;
            return this;
        }

        public Builder finalizers(int v) {
            finalizers = v;
            return this;
        }

        public Builder memoryBudgetBytes(long v) {
            memoryBudgetBytes = v;
            return this;
        }

        /** Idle pooled memory kept for reuse (default: the whole budget). */
        public Builder maxIdlePoolBytes(long v) {
            maxIdlePoolBytes = v;
            return this;
        }

        /** How long a pooled block may stay idle before it is given back to the system (default 10 s). */
        public Builder poolIdleRelease(Duration v) {
            poolIdleRelease = v;
            return this;
        }

        /** Ready partitions kept per device worker; 0 (the default) derives it from the measured times. */
        public Builder readyPerWorker(int v) {
            readyPerWorker = v;
            return this;
        }

        public Builder keyCacheBytes(long v) {
            keyCacheBytes = v;
            return this;
        }

        public Builder shutdownTimeout(Duration v) {
            shutdownTimeout = v;
            return this;
        }

        /** Verify every proof in the finalizers before it is handed out (see {@link Config#selfCheck()}). */
        public Builder selfCheck(boolean v) {
            selfCheck = v;
            return this;
        }

        public Builder slabAllocator(SlabAllocator v) {
            slabAllocator = v;
            return this;
        }

        public Config build() {
            Validate.notNull(devices, "devices");
            Validate.noNullElements(devices, "device %d is null");
            SlabAllocator alloc = slabAllocator;
            if (alloc == null) {
                // pinned host memory where a GPU proves, so its uploads run at full speed
                alloc = devices.stream().anyMatch(Backend::prefersPinnedHostMemory) ? new PinnedSlabAllocator() : SlabAllocator.offHeap();
            }
            return new Config(devices, workersPerDevice, synthesisWorkers, synthesisThreads, finalizers, memoryBudgetBytes,
                    maxIdlePoolBytes == null ? memoryBudgetBytes : maxIdlePoolBytes, poolIdleRelease, readyPerWorker, keyCacheBytes, alloc,
                    shutdownTimeout, selfCheck);
        }
    }
}
