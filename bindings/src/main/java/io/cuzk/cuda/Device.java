package io.cuzk.cuda;

import io.cuzk.internal.ffi.cudaDeviceProp;
import io.cuzk.internal.ffi.cudart_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.apache.commons.lang3.Validate;

/** A CUDA device by ordinal, with its properties. */
public final class Device {
    /** What cudaGetDeviceProperties reports that cuzk uses. */
    public record Properties(String name, long totalGlobalMemory, int multiprocessors, int computeMajor, int computeMinor,
            long sharedMemoryPerBlock, long sharedMemoryPerBlockOptin, int l2CacheBytes, int memoryBusWidthBits,
            int maxThreadsPerBlock, int maxThreadsPerMultiprocessor, boolean memoryPools, int pciBusId) {
        /** The compute capability as {@code sm_90}. */
        public String smName() {
            return "sm_" + computeMajor + computeMinor;
        }
    }

    private final int ordinal;

    private Device(int ordinal) {
        this.ordinal = ordinal;
    }

    /** Device ordinal must be in [0, CudaRuntime.deviceCount()). */
    public static Device get(int ordinal) {
        int count = CudaRuntime.deviceCount();
        Validate.isTrue(ordinal >= 0 && ordinal < count, "CUDA device %d does not exist (%d devices)", ordinal, count);
        return new Device(ordinal);
    }

    public int ordinal() {
        return ordinal;
    }

    /** Makes this the calling thread's current device. */
    public void makeCurrent() {
        CudaRuntime.check(cudart_h.cudaSetDevice(ordinal), "cudaSetDevice(" + ordinal + ")");
    }

    public Properties properties() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = cudaDeviceProp.allocate(a);
            CudaRuntime.check(cudart_h.cudaGetDeviceProperties(p, ordinal), "cudaGetDeviceProperties(" + ordinal + ")");
            return new Properties(cudaDeviceProp.name(p).getString(0), cudaDeviceProp.totalGlobalMem(p), cudaDeviceProp.multiProcessorCount(p),
                    cudaDeviceProp.major(p), cudaDeviceProp.minor(p), cudaDeviceProp.sharedMemPerBlock(p),
                    cudaDeviceProp.sharedMemPerBlockOptin(p), cudaDeviceProp.l2CacheSize(p), cudaDeviceProp.memoryBusWidth(p),
                    cudaDeviceProp.maxThreadsPerBlock(p), cudaDeviceProp.maxThreadsPerMultiProcessor(p),
                    cudaDeviceProp.memoryPoolsSupported(p) != 0, cudaDeviceProp.pciBusID(p));
        }
    }

    /** Free and total device memory now, in bytes. */
    public long[] memoryInfo() {
        makeCurrent();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(ValueLayout.JAVA_LONG), total = a.allocate(ValueLayout.JAVA_LONG);
            CudaRuntime.check(cudart_h.cudaMemGetInfo(free, total), "cudaMemGetInfo");
            return new long[] {free.get(ValueLayout.JAVA_LONG, 0), total.get(ValueLayout.JAVA_LONG, 0)};
        }
    }

    /**
     * Sets how much freed stream-ordered memory the device's default pool keeps for reuse
     * (cudaMemPoolAttrReleaseThreshold): at a synchronisation, what it holds beyond bytes goes back
     * to the driver. -1 keeps everything.
     */
    public void setPoolRetention(long bytes) {
        Validate.isTrue(bytes >= -1, "a pool retention of %d bytes", bytes);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ValueLayout.JAVA_LONG);
            v.set(ValueLayout.JAVA_LONG, 0, bytes);
            CudaRuntime.check(cudart_h.cudaMemPoolSetAttribute(defaultPool(), cudart_h.cudaMemPoolAttrReleaseThreshold(), v),
                    "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)");
        }
    }

    /**
     * Gives the freed memory the device's default pool holds beyond keepBytes back to the driver
     * (cudaMemPoolTrimTo): memory that allocations in flight use is never touched.
     */
    public void trimPool(long keepBytes) {
        Validate.isTrue(keepBytes >= 0, "keep %d bytes", keepBytes);
        CudaRuntime.check(cudart_h.cudaMemPoolTrimTo(defaultPool(), keepBytes), "cudaMemPoolTrimTo");
    }

    /** What the device's default pool holds now: reserved from the driver, and of that in use, in bytes. */
    public record PoolUsage(long reservedBytes, long usedBytes) {}

    public PoolUsage poolUsage() {
        MemorySegment pool = defaultPool();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ValueLayout.JAVA_LONG);
            CudaRuntime.check(cudart_h.cudaMemPoolGetAttribute(pool, cudart_h.cudaMemPoolAttrReservedMemCurrent(), v),
                    "cudaMemPoolGetAttribute(cudaMemPoolAttrReservedMemCurrent)");
            long reserved = v.get(ValueLayout.JAVA_LONG, 0);
            CudaRuntime.check(cudart_h.cudaMemPoolGetAttribute(pool, cudart_h.cudaMemPoolAttrUsedMemCurrent(), v),
                    "cudaMemPoolGetAttribute(cudaMemPoolAttrUsedMemCurrent)");
            return new PoolUsage(reserved, v.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    private MemorySegment defaultPool() {
        makeCurrent();
        return CudaRuntime.pointerOut(p -> cudart_h.cudaDeviceGetDefaultMemPool(p, ordinal), "cudaDeviceGetDefaultMemPool");
    }

    @Override
    public String toString() {
        return "cuda:" + ordinal;
    }
}
