package io.cuzk.internal;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;

/**
 * {@snippet lang=c : struct cudaDeviceProp } of the CUDA 13 runtime ({@code driver_types.h}), every
 * field in order, written by hand in jextract's shape; {@code CudaLayoutTest} compares each
 * field's offset and the struct's size with a C program compiled against the installed header.
 * Accessors exist for the fields cuzk reads.
 */
@SuppressWarnings("unused")
public final class cudaDeviceProp {
    private cudaDeviceProp() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(256, cudart_h.C_CHAR).withName("name"),
            MemoryLayout.sequenceLayout(16, cudart_h.C_CHAR).withName("uuid"),
            MemoryLayout.sequenceLayout(8, cudart_h.C_CHAR).withName("luid"),
            cudart_h.C_INT.withName("luidDeviceNodeMask"),
            MemoryLayout.paddingLayout(4),
            cudart_h.C_LONG.withName("totalGlobalMem"),
            cudart_h.C_LONG.withName("sharedMemPerBlock"),
            cudart_h.C_INT.withName("regsPerBlock"),
            cudart_h.C_INT.withName("warpSize"),
            cudart_h.C_LONG.withName("memPitch"),
            cudart_h.C_INT.withName("maxThreadsPerBlock"),
            MemoryLayout.sequenceLayout(3, cudart_h.C_INT).withName("maxThreadsDim"),
            MemoryLayout.sequenceLayout(3, cudart_h.C_INT).withName("maxGridSize"),
            MemoryLayout.paddingLayout(4),
            cudart_h.C_LONG.withName("totalConstMem"),
            cudart_h.C_INT.withName("major"),
            cudart_h.C_INT.withName("minor"),
            cudart_h.C_LONG.withName("textureAlignment"),
            cudart_h.C_LONG.withName("texturePitchAlignment"),
            cudart_h.C_INT.withName("multiProcessorCount"),
            cudart_h.C_INT.withName("integrated"),
            cudart_h.C_INT.withName("canMapHostMemory"),
            cudart_h.C_INT.withName("maxTexture1D"),
            cudart_h.C_INT.withName("maxTexture1DMipmap"),
            MemoryLayout.sequenceLayout(2, cudart_h.C_INT).withName("maxTexture2D"),
            MemoryLayout.sequenceLayout(2, cudart_h.C_INT).withName("maxTexture2DMipmap"),
            MemoryLayout.sequenceLayout(3, cudart_h.C_INT).withName("maxTexture2DLinear"),
            MemoryLayout.sequenceLayout(2, cudart_h.C_INT).withName("maxTexture2DGather"),
            MemoryLayout.sequenceLayout(3, cudart_h.C_INT).withName("maxTexture3D"),
            MemoryLayout.sequenceLayout(3, cudart_h.C_INT).withName("maxTexture3DAlt"),
            cudart_h.C_INT.withName("maxTextureCubemap"),
            MemoryLayout.sequenceLayout(2, cudart_h.C_INT).withName("maxTexture1DLayered"),
            MemoryLayout.sequenceLayout(3, cudart_h.C_INT).withName("maxTexture2DLayered"),
            MemoryLayout.sequenceLayout(2, cudart_h.C_INT).withName("maxTextureCubemapLayered"),
            cudart_h.C_INT.withName("maxSurface1D"),
            MemoryLayout.sequenceLayout(2, cudart_h.C_INT).withName("maxSurface2D"),
            MemoryLayout.sequenceLayout(3, cudart_h.C_INT).withName("maxSurface3D"),
            MemoryLayout.sequenceLayout(2, cudart_h.C_INT).withName("maxSurface1DLayered"),
            MemoryLayout.sequenceLayout(3, cudart_h.C_INT).withName("maxSurface2DLayered"),
            cudart_h.C_INT.withName("maxSurfaceCubemap"),
            MemoryLayout.sequenceLayout(2, cudart_h.C_INT).withName("maxSurfaceCubemapLayered"),
            cudart_h.C_LONG.withName("surfaceAlignment"),
            cudart_h.C_INT.withName("concurrentKernels"),
            cudart_h.C_INT.withName("ECCEnabled"),
            cudart_h.C_INT.withName("pciBusID"),
            cudart_h.C_INT.withName("pciDeviceID"),
            cudart_h.C_INT.withName("pciDomainID"),
            cudart_h.C_INT.withName("tccDriver"),
            cudart_h.C_INT.withName("asyncEngineCount"),
            cudart_h.C_INT.withName("unifiedAddressing"),
            cudart_h.C_INT.withName("memoryBusWidth"),
            cudart_h.C_INT.withName("l2CacheSize"),
            cudart_h.C_INT.withName("persistingL2CacheMaxSize"),
            cudart_h.C_INT.withName("maxThreadsPerMultiProcessor"),
            cudart_h.C_INT.withName("streamPrioritiesSupported"),
            cudart_h.C_INT.withName("globalL1CacheSupported"),
            cudart_h.C_INT.withName("localL1CacheSupported"),
            MemoryLayout.paddingLayout(4),
            cudart_h.C_LONG.withName("sharedMemPerMultiprocessor"),
            cudart_h.C_INT.withName("regsPerMultiprocessor"),
            cudart_h.C_INT.withName("managedMemory"),
            cudart_h.C_INT.withName("isMultiGpuBoard"),
            cudart_h.C_INT.withName("multiGpuBoardGroupID"),
            cudart_h.C_INT.withName("hostNativeAtomicSupported"),
            cudart_h.C_INT.withName("pageableMemoryAccess"),
            cudart_h.C_INT.withName("concurrentManagedAccess"),
            cudart_h.C_INT.withName("computePreemptionSupported"),
            cudart_h.C_INT.withName("canUseHostPointerForRegisteredMem"),
            cudart_h.C_INT.withName("cooperativeLaunch"),
            cudart_h.C_LONG.withName("sharedMemPerBlockOptin"),
            cudart_h.C_INT.withName("pageableMemoryAccessUsesHostPageTables"),
            cudart_h.C_INT.withName("directManagedMemAccessFromHost"),
            cudart_h.C_INT.withName("maxBlocksPerMultiProcessor"),
            cudart_h.C_INT.withName("accessPolicyMaxWindowSize"),
            cudart_h.C_LONG.withName("reservedSharedMemPerBlock"),
            cudart_h.C_INT.withName("hostRegisterSupported"),
            cudart_h.C_INT.withName("sparseCudaArraySupported"),
            cudart_h.C_INT.withName("hostRegisterReadOnlySupported"),
            cudart_h.C_INT.withName("timelineSemaphoreInteropSupported"),
            cudart_h.C_INT.withName("memoryPoolsSupported"),
            cudart_h.C_INT.withName("gpuDirectRDMASupported"),
            cudart_h.C_INT.withName("gpuDirectRDMAFlushWritesOptions"),
            cudart_h.C_INT.withName("gpuDirectRDMAWritesOrdering"),
            cudart_h.C_INT.withName("memoryPoolSupportedHandleTypes"),
            cudart_h.C_INT.withName("deferredMappingCudaArraySupported"),
            cudart_h.C_INT.withName("ipcEventSupported"),
            cudart_h.C_INT.withName("clusterLaunch"),
            cudart_h.C_INT.withName("unifiedFunctionPointers"),
            cudart_h.C_INT.withName("deviceNumaConfig"),
            cudart_h.C_INT.withName("deviceNumaId"),
            cudart_h.C_INT.withName("mpsEnabled"),
            cudart_h.C_INT.withName("hostNumaId"),
            cudart_h.C_INT.withName("gpuPciDeviceID"),
            cudart_h.C_INT.withName("gpuPciSubsystemID"),
            cudart_h.C_INT.withName("hostNumaMultinodeIpcSupported"),
            MemoryLayout.sequenceLayout(56, cudart_h.C_INT).withName("reserved")
    ).withName("cudaDeviceProp");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final long name$OFFSET = $LAYOUT.byteOffset(groupElement("name"));

    public static long name$offset() {
        return name$OFFSET;
    }

    /** The device name, a NUL-terminated string of at most 256 bytes. */
    public static String name(MemorySegment struct) {
        return struct.asSlice(name$OFFSET, 256).getString(0);
    }

    private static final OfLong totalGlobalMem$LAYOUT = (OfLong) $LAYOUT.select(groupElement("totalGlobalMem"));
    private static final long totalGlobalMem$OFFSET = $LAYOUT.byteOffset(groupElement("totalGlobalMem"));

    public static long totalGlobalMem$offset() {
        return totalGlobalMem$OFFSET;
    }

    public static long totalGlobalMem(MemorySegment struct) {
        return struct.get(totalGlobalMem$LAYOUT, totalGlobalMem$OFFSET);
    }

    private static final OfLong sharedMemPerBlock$LAYOUT = (OfLong) $LAYOUT.select(groupElement("sharedMemPerBlock"));
    private static final long sharedMemPerBlock$OFFSET = $LAYOUT.byteOffset(groupElement("sharedMemPerBlock"));

    public static long sharedMemPerBlock$offset() {
        return sharedMemPerBlock$OFFSET;
    }

    public static long sharedMemPerBlock(MemorySegment struct) {
        return struct.get(sharedMemPerBlock$LAYOUT, sharedMemPerBlock$OFFSET);
    }

    private static final OfInt warpSize$LAYOUT = (OfInt) $LAYOUT.select(groupElement("warpSize"));
    private static final long warpSize$OFFSET = $LAYOUT.byteOffset(groupElement("warpSize"));

    public static long warpSize$offset() {
        return warpSize$OFFSET;
    }

    public static int warpSize(MemorySegment struct) {
        return struct.get(warpSize$LAYOUT, warpSize$OFFSET);
    }

    private static final OfInt maxThreadsPerBlock$LAYOUT = (OfInt) $LAYOUT.select(groupElement("maxThreadsPerBlock"));
    private static final long maxThreadsPerBlock$OFFSET = $LAYOUT.byteOffset(groupElement("maxThreadsPerBlock"));

    public static long maxThreadsPerBlock$offset() {
        return maxThreadsPerBlock$OFFSET;
    }

    public static int maxThreadsPerBlock(MemorySegment struct) {
        return struct.get(maxThreadsPerBlock$LAYOUT, maxThreadsPerBlock$OFFSET);
    }

    private static final OfInt major$LAYOUT = (OfInt) $LAYOUT.select(groupElement("major"));
    private static final long major$OFFSET = $LAYOUT.byteOffset(groupElement("major"));

    public static long major$offset() {
        return major$OFFSET;
    }

    public static int major(MemorySegment struct) {
        return struct.get(major$LAYOUT, major$OFFSET);
    }

    private static final OfInt minor$LAYOUT = (OfInt) $LAYOUT.select(groupElement("minor"));
    private static final long minor$OFFSET = $LAYOUT.byteOffset(groupElement("minor"));

    public static long minor$offset() {
        return minor$OFFSET;
    }

    public static int minor(MemorySegment struct) {
        return struct.get(minor$LAYOUT, minor$OFFSET);
    }

    private static final OfInt multiProcessorCount$LAYOUT = (OfInt) $LAYOUT.select(groupElement("multiProcessorCount"));
    private static final long multiProcessorCount$OFFSET = $LAYOUT.byteOffset(groupElement("multiProcessorCount"));

    public static long multiProcessorCount$offset() {
        return multiProcessorCount$OFFSET;
    }

    public static int multiProcessorCount(MemorySegment struct) {
        return struct.get(multiProcessorCount$LAYOUT, multiProcessorCount$OFFSET);
    }

    private static final OfInt pciBusID$LAYOUT = (OfInt) $LAYOUT.select(groupElement("pciBusID"));
    private static final long pciBusID$OFFSET = $LAYOUT.byteOffset(groupElement("pciBusID"));

    public static long pciBusID$offset() {
        return pciBusID$OFFSET;
    }

    public static int pciBusID(MemorySegment struct) {
        return struct.get(pciBusID$LAYOUT, pciBusID$OFFSET);
    }

    private static final OfInt asyncEngineCount$LAYOUT = (OfInt) $LAYOUT.select(groupElement("asyncEngineCount"));
    private static final long asyncEngineCount$OFFSET = $LAYOUT.byteOffset(groupElement("asyncEngineCount"));

    public static long asyncEngineCount$offset() {
        return asyncEngineCount$OFFSET;
    }

    public static int asyncEngineCount(MemorySegment struct) {
        return struct.get(asyncEngineCount$LAYOUT, asyncEngineCount$OFFSET);
    }

    private static final OfInt unifiedAddressing$LAYOUT = (OfInt) $LAYOUT.select(groupElement("unifiedAddressing"));
    private static final long unifiedAddressing$OFFSET = $LAYOUT.byteOffset(groupElement("unifiedAddressing"));

    public static long unifiedAddressing$offset() {
        return unifiedAddressing$OFFSET;
    }

    public static int unifiedAddressing(MemorySegment struct) {
        return struct.get(unifiedAddressing$LAYOUT, unifiedAddressing$OFFSET);
    }

    private static final OfInt memoryBusWidth$LAYOUT = (OfInt) $LAYOUT.select(groupElement("memoryBusWidth"));
    private static final long memoryBusWidth$OFFSET = $LAYOUT.byteOffset(groupElement("memoryBusWidth"));

    public static long memoryBusWidth$offset() {
        return memoryBusWidth$OFFSET;
    }

    public static int memoryBusWidth(MemorySegment struct) {
        return struct.get(memoryBusWidth$LAYOUT, memoryBusWidth$OFFSET);
    }

    private static final OfInt l2CacheSize$LAYOUT = (OfInt) $LAYOUT.select(groupElement("l2CacheSize"));
    private static final long l2CacheSize$OFFSET = $LAYOUT.byteOffset(groupElement("l2CacheSize"));

    public static long l2CacheSize$offset() {
        return l2CacheSize$OFFSET;
    }

    public static int l2CacheSize(MemorySegment struct) {
        return struct.get(l2CacheSize$LAYOUT, l2CacheSize$OFFSET);
    }

    private static final OfInt maxThreadsPerMultiProcessor$LAYOUT = (OfInt) $LAYOUT.select(groupElement("maxThreadsPerMultiProcessor"));
    private static final long maxThreadsPerMultiProcessor$OFFSET = $LAYOUT.byteOffset(groupElement("maxThreadsPerMultiProcessor"));

    public static long maxThreadsPerMultiProcessor$offset() {
        return maxThreadsPerMultiProcessor$OFFSET;
    }

    public static int maxThreadsPerMultiProcessor(MemorySegment struct) {
        return struct.get(maxThreadsPerMultiProcessor$LAYOUT, maxThreadsPerMultiProcessor$OFFSET);
    }

    private static final OfLong sharedMemPerBlockOptin$LAYOUT = (OfLong) $LAYOUT.select(groupElement("sharedMemPerBlockOptin"));
    private static final long sharedMemPerBlockOptin$OFFSET = $LAYOUT.byteOffset(groupElement("sharedMemPerBlockOptin"));

    public static long sharedMemPerBlockOptin$offset() {
        return sharedMemPerBlockOptin$OFFSET;
    }

    public static long sharedMemPerBlockOptin(MemorySegment struct) {
        return struct.get(sharedMemPerBlockOptin$LAYOUT, sharedMemPerBlockOptin$OFFSET);
    }

    private static final OfInt memoryPoolsSupported$LAYOUT = (OfInt) $LAYOUT.select(groupElement("memoryPoolsSupported"));
    private static final long memoryPoolsSupported$OFFSET = $LAYOUT.byteOffset(groupElement("memoryPoolsSupported"));

    public static long memoryPoolsSupported$offset() {
        return memoryPoolsSupported$OFFSET;
    }

    public static int memoryPoolsSupported(MemorySegment struct) {
        return struct.get(memoryPoolsSupported$LAYOUT, memoryPoolsSupported$OFFSET);
    }

    public static MemorySegment allocate(SegmentAllocator allocator) {
        return allocator.allocate(layout());
    }
}
