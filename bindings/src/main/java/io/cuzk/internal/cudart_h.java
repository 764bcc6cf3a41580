package io.cuzk.internal;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Downcalls of the CUDA runtime ({@code libcudart}, CUDA 13) that cuzk uses, written by hand in the
 * shape jextract generates: one nested holder per function with its descriptor, address and
 * {@code static final} method handle, created on first use; {@code f$descriptor()},
 * {@code f$handle()}, {@code f$address()}; a static method calling {@code invokeExact}. Error
 * codes come back as they are: {@link io.cuzk.cuda.CudaRuntime} turns them into exceptions.
 * The library is found by {@link CudaLibrary}.
 */
@SuppressWarnings("unused")
public final class cudart_h {
    private cudart_h() {}

    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    public static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
    public static final ValueLayout.OfByte C_CHAR = ValueLayout.JAVA_BYTE;
    public static final ValueLayout.OfFloat C_FLOAT = ValueLayout.JAVA_FLOAT;
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS
            .withTargetLayout(MemoryLayout.sequenceLayout(Long.MAX_VALUE, ValueLayout.JAVA_BYTE));

    /** {@code cudaSuccess} */
    public static final int cudaSuccess = 0;
    /** {@code cudaErrorNotReady}: a stream or event query while work is still running. */
    public static final int cudaErrorNotReady = 600;
    /** {@code cudaErrorInsufficientDriver}: the driver is missing or older than the runtime. */
    public static final int cudaErrorInsufficientDriver = 35;
    /** {@code cudaErrorNoDevice} */
    public static final int cudaErrorNoDevice = 100;
    /** {@code cudaStreamNonBlocking} */
    public static final int cudaStreamNonBlocking = 1;
    /** {@code cudaEventDefault}, {@code cudaEventBlockingSync}, {@code cudaEventDisableTiming} */
    public static final int cudaEventDefault = 0;
    public static final int cudaEventBlockingSync = 1;
    public static final int cudaEventDisableTiming = 2;
    /** {@code cudaHostAllocDefault}, {@code cudaHostAllocPortable} */
    public static final int cudaHostAllocDefault = 0;
    public static final int cudaHostAllocPortable = 1;
    /** {@code enum cudaMemcpyKind} */
    public static final int cudaMemcpyHostToDevice = 1;
    public static final int cudaMemcpyDeviceToHost = 2;
    public static final int cudaMemcpyDeviceToDevice = 3;
    public static final int cudaMemcpyDefault = 4;
    /** {@code cudaMemPoolAttrReleaseThreshold} */
    public static final int cudaMemPoolAttrReleaseThreshold = 4;

    static final Linker LINKER = Linker.nativeLinker();

    static MemorySegment findOrThrow(String symbol) {
        return CudaLibrary.lookup().find(symbol).orElseThrow(() -> new UnsatisfiedLinkError(
                "cuzk: symbol " + symbol + " not found in the CUDA runtime " + CudaLibrary.path()));
    }

    private static final class cudaRuntimeGetVersion {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaRuntimeGetVersion");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) } */
    public static FunctionDescriptor cudaRuntimeGetVersion$descriptor() {
        return cudaRuntimeGetVersion.DESC;
    }

    public static MethodHandle cudaRuntimeGetVersion$handle() {
        return cudaRuntimeGetVersion.HANDLE;
    }

    public static MemorySegment cudaRuntimeGetVersion$address() {
        return cudaRuntimeGetVersion.ADDR;
    }

    public static int cudaRuntimeGetVersion(MemorySegment runtimeVersion) {
        var mh$ = cudaRuntimeGetVersion.HANDLE;
        try {
            return (int) mh$.invokeExact(runtimeVersion);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaDriverGetVersion {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaDriverGetVersion");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaDriverGetVersion(int *driverVersion) } */
    public static FunctionDescriptor cudaDriverGetVersion$descriptor() {
        return cudaDriverGetVersion.DESC;
    }

    public static MethodHandle cudaDriverGetVersion$handle() {
        return cudaDriverGetVersion.HANDLE;
    }

    public static MemorySegment cudaDriverGetVersion$address() {
        return cudaDriverGetVersion.ADDR;
    }

    public static int cudaDriverGetVersion(MemorySegment driverVersion) {
        var mh$ = cudaDriverGetVersion.HANDLE;
        try {
            return (int) mh$.invokeExact(driverVersion);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaGetDeviceCount {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaGetDeviceCount");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaGetDeviceCount(int *count) } */
    public static FunctionDescriptor cudaGetDeviceCount$descriptor() {
        return cudaGetDeviceCount.DESC;
    }

    public static MethodHandle cudaGetDeviceCount$handle() {
        return cudaGetDeviceCount.HANDLE;
    }

    public static MemorySegment cudaGetDeviceCount$address() {
        return cudaGetDeviceCount.ADDR;
    }

    public static int cudaGetDeviceCount(MemorySegment count) {
        var mh$ = cudaGetDeviceCount.HANDLE;
        try {
            return (int) mh$.invokeExact(count);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaGetDeviceProperties {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("cudaGetDeviceProperties");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) } */
    public static FunctionDescriptor cudaGetDeviceProperties$descriptor() {
        return cudaGetDeviceProperties.DESC;
    }

    public static MethodHandle cudaGetDeviceProperties$handle() {
        return cudaGetDeviceProperties.HANDLE;
    }

    public static MemorySegment cudaGetDeviceProperties$address() {
        return cudaGetDeviceProperties.ADDR;
    }

    public static int cudaGetDeviceProperties(MemorySegment prop, int device) {
        var mh$ = cudaGetDeviceProperties.HANDLE;
        try {
            return (int) mh$.invokeExact(prop, device);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaSetDevice {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT);
        static final MemorySegment ADDR = findOrThrow("cudaSetDevice");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaSetDevice(int device) } */
    public static FunctionDescriptor cudaSetDevice$descriptor() {
        return cudaSetDevice.DESC;
    }

    public static MethodHandle cudaSetDevice$handle() {
        return cudaSetDevice.HANDLE;
    }

    public static MemorySegment cudaSetDevice$address() {
        return cudaSetDevice.ADDR;
    }

    public static int cudaSetDevice(int device) {
        var mh$ = cudaSetDevice.HANDLE;
        try {
            return (int) mh$.invokeExact(device);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaGetDevice {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaGetDevice");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaGetDevice(int *device) } */
    public static FunctionDescriptor cudaGetDevice$descriptor() {
        return cudaGetDevice.DESC;
    }

    public static MethodHandle cudaGetDevice$handle() {
        return cudaGetDevice.HANDLE;
    }

    public static MemorySegment cudaGetDevice$address() {
        return cudaGetDevice.ADDR;
    }

    public static int cudaGetDevice(MemorySegment device) {
        var mh$ = cudaGetDevice.HANDLE;
        try {
            return (int) mh$.invokeExact(device);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaMemGetInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaMemGetInfo");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaMemGetInfo(size_t *free, size_t *total) } */
    public static FunctionDescriptor cudaMemGetInfo$descriptor() {
        return cudaMemGetInfo.DESC;
    }

    public static MethodHandle cudaMemGetInfo$handle() {
        return cudaMemGetInfo.HANDLE;
    }

    public static MemorySegment cudaMemGetInfo$address() {
        return cudaMemGetInfo.ADDR;
    }

    public static int cudaMemGetInfo(MemorySegment free, MemorySegment total) {
        var mh$ = cudaMemGetInfo.HANDLE;
        try {
            return (int) mh$.invokeExact(free, total);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaDeviceSynchronize {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT);
        static final MemorySegment ADDR = findOrThrow("cudaDeviceSynchronize");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaDeviceSynchronize(void) } */
    public static FunctionDescriptor cudaDeviceSynchronize$descriptor() {
        return cudaDeviceSynchronize.DESC;
    }

    public static MethodHandle cudaDeviceSynchronize$handle() {
        return cudaDeviceSynchronize.HANDLE;
    }

    public static MemorySegment cudaDeviceSynchronize$address() {
        return cudaDeviceSynchronize.ADDR;
    }

    public static int cudaDeviceSynchronize() {
        var mh$ = cudaDeviceSynchronize.HANDLE;
        try {
            return (int) mh$.invokeExact();
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaStreamCreateWithFlags {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("cudaStreamCreateWithFlags");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) } */
    public static FunctionDescriptor cudaStreamCreateWithFlags$descriptor() {
        return cudaStreamCreateWithFlags.DESC;
    }

    public static MethodHandle cudaStreamCreateWithFlags$handle() {
        return cudaStreamCreateWithFlags.HANDLE;
    }

    public static MemorySegment cudaStreamCreateWithFlags$address() {
        return cudaStreamCreateWithFlags.ADDR;
    }

    public static int cudaStreamCreateWithFlags(MemorySegment pStream, int flags) {
        var mh$ = cudaStreamCreateWithFlags.HANDLE;
        try {
            return (int) mh$.invokeExact(pStream, flags);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaStreamDestroy {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaStreamDestroy");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaStreamDestroy(cudaStream_t stream) } */
    public static FunctionDescriptor cudaStreamDestroy$descriptor() {
        return cudaStreamDestroy.DESC;
    }

    public static MethodHandle cudaStreamDestroy$handle() {
        return cudaStreamDestroy.HANDLE;
    }

    public static MemorySegment cudaStreamDestroy$address() {
        return cudaStreamDestroy.ADDR;
    }

    public static int cudaStreamDestroy(MemorySegment stream) {
        var mh$ = cudaStreamDestroy.HANDLE;
        try {
            return (int) mh$.invokeExact(stream);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaStreamSynchronize {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaStreamSynchronize");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaStreamSynchronize(cudaStream_t stream) } */
    public static FunctionDescriptor cudaStreamSynchronize$descriptor() {
        return cudaStreamSynchronize.DESC;
    }

    public static MethodHandle cudaStreamSynchronize$handle() {
        return cudaStreamSynchronize.HANDLE;
    }

    public static MemorySegment cudaStreamSynchronize$address() {
        return cudaStreamSynchronize.ADDR;
    }

    public static int cudaStreamSynchronize(MemorySegment stream) {
        var mh$ = cudaStreamSynchronize.HANDLE;
        try {
            return (int) mh$.invokeExact(stream);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaStreamQuery {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaStreamQuery");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaStreamQuery(cudaStream_t stream) } */
    public static FunctionDescriptor cudaStreamQuery$descriptor() {
        return cudaStreamQuery.DESC;
    }

    public static MethodHandle cudaStreamQuery$handle() {
        return cudaStreamQuery.HANDLE;
    }

    public static MemorySegment cudaStreamQuery$address() {
        return cudaStreamQuery.ADDR;
    }

    public static int cudaStreamQuery(MemorySegment stream) {
        var mh$ = cudaStreamQuery.HANDLE;
        try {
            return (int) mh$.invokeExact(stream);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaEventCreateWithFlags {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("cudaEventCreateWithFlags");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) } */
    public static FunctionDescriptor cudaEventCreateWithFlags$descriptor() {
        return cudaEventCreateWithFlags.DESC;
    }

    public static MethodHandle cudaEventCreateWithFlags$handle() {
        return cudaEventCreateWithFlags.HANDLE;
    }

    public static MemorySegment cudaEventCreateWithFlags$address() {
        return cudaEventCreateWithFlags.ADDR;
    }

    public static int cudaEventCreateWithFlags(MemorySegment event, int flags) {
        var mh$ = cudaEventCreateWithFlags.HANDLE;
        try {
            return (int) mh$.invokeExact(event, flags);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaEventDestroy {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaEventDestroy");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaEventDestroy(cudaEvent_t event) } */
    public static FunctionDescriptor cudaEventDestroy$descriptor() {
        return cudaEventDestroy.DESC;
    }

    public static MethodHandle cudaEventDestroy$handle() {
        return cudaEventDestroy.HANDLE;
    }

    public static MemorySegment cudaEventDestroy$address() {
        return cudaEventDestroy.ADDR;
    }

    public static int cudaEventDestroy(MemorySegment event) {
        var mh$ = cudaEventDestroy.HANDLE;
        try {
            return (int) mh$.invokeExact(event);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaEventRecord {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaEventRecord");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) } */
    public static FunctionDescriptor cudaEventRecord$descriptor() {
        return cudaEventRecord.DESC;
    }

    public static MethodHandle cudaEventRecord$handle() {
        return cudaEventRecord.HANDLE;
    }

    public static MemorySegment cudaEventRecord$address() {
        return cudaEventRecord.ADDR;
    }

    public static int cudaEventRecord(MemorySegment event, MemorySegment stream) {
        var mh$ = cudaEventRecord.HANDLE;
        try {
            return (int) mh$.invokeExact(event, stream);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaEventSynchronize {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaEventSynchronize");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaEventSynchronize(cudaEvent_t event) } */
    public static FunctionDescriptor cudaEventSynchronize$descriptor() {
        return cudaEventSynchronize.DESC;
    }

    public static MethodHandle cudaEventSynchronize$handle() {
        return cudaEventSynchronize.HANDLE;
    }

    public static MemorySegment cudaEventSynchronize$address() {
        return cudaEventSynchronize.ADDR;
    }

    public static int cudaEventSynchronize(MemorySegment event) {
        var mh$ = cudaEventSynchronize.HANDLE;
        try {
            return (int) mh$.invokeExact(event);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaEventQuery {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaEventQuery");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaEventQuery(cudaEvent_t event) } */
    public static FunctionDescriptor cudaEventQuery$descriptor() {
        return cudaEventQuery.DESC;
    }

    public static MethodHandle cudaEventQuery$handle() {
        return cudaEventQuery.HANDLE;
    }

    public static MemorySegment cudaEventQuery$address() {
        return cudaEventQuery.ADDR;
    }

    public static int cudaEventQuery(MemorySegment event) {
        var mh$ = cudaEventQuery.HANDLE;
        try {
            return (int) mh$.invokeExact(event);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaEventElapsedTime {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaEventElapsedTime");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) } */
    public static FunctionDescriptor cudaEventElapsedTime$descriptor() {
        return cudaEventElapsedTime.DESC;
    }

    public static MethodHandle cudaEventElapsedTime$handle() {
        return cudaEventElapsedTime.HANDLE;
    }

    public static MemorySegment cudaEventElapsedTime$address() {
        return cudaEventElapsedTime.ADDR;
    }

    public static int cudaEventElapsedTime(MemorySegment ms, MemorySegment start, MemorySegment end) {
        var mh$ = cudaEventElapsedTime.HANDLE;
        try {
            return (int) mh$.invokeExact(ms, start, end);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaMalloc {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("cudaMalloc");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaMalloc(void **devPtr, size_t size) } */
    public static FunctionDescriptor cudaMalloc$descriptor() {
        return cudaMalloc.DESC;
    }

    public static MethodHandle cudaMalloc$handle() {
        return cudaMalloc.HANDLE;
    }

    public static MemorySegment cudaMalloc$address() {
        return cudaMalloc.ADDR;
    }

    public static int cudaMalloc(MemorySegment devPtr, long size) {
        var mh$ = cudaMalloc.HANDLE;
        try {
            return (int) mh$.invokeExact(devPtr, size);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaFree {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaFree");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaFree(void *devPtr) } */
    public static FunctionDescriptor cudaFree$descriptor() {
        return cudaFree.DESC;
    }

    public static MethodHandle cudaFree$handle() {
        return cudaFree.HANDLE;
    }

    public static MemorySegment cudaFree$address() {
        return cudaFree.ADDR;
    }

    public static int cudaFree(MemorySegment devPtr) {
        var mh$ = cudaFree.HANDLE;
        try {
            return (int) mh$.invokeExact(devPtr);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaMallocAsync {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaMallocAsync");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream) } */
    public static FunctionDescriptor cudaMallocAsync$descriptor() {
        return cudaMallocAsync.DESC;
    }

    public static MethodHandle cudaMallocAsync$handle() {
        return cudaMallocAsync.HANDLE;
    }

    public static MemorySegment cudaMallocAsync$address() {
        return cudaMallocAsync.ADDR;
    }

    public static int cudaMallocAsync(MemorySegment devPtr, long size, MemorySegment stream) {
        var mh$ = cudaMallocAsync.HANDLE;
        try {
            return (int) mh$.invokeExact(devPtr, size, stream);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaFreeAsync {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaFreeAsync");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream) } */
    public static FunctionDescriptor cudaFreeAsync$descriptor() {
        return cudaFreeAsync.DESC;
    }

    public static MethodHandle cudaFreeAsync$handle() {
        return cudaFreeAsync.HANDLE;
    }

    public static MemorySegment cudaFreeAsync$address() {
        return cudaFreeAsync.ADDR;
    }

    public static int cudaFreeAsync(MemorySegment devPtr, MemorySegment stream) {
        var mh$ = cudaFreeAsync.HANDLE;
        try {
            return (int) mh$.invokeExact(devPtr, stream);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaDeviceGetDefaultMemPool {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("cudaDeviceGetDefaultMemPool");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device) } */
    public static FunctionDescriptor cudaDeviceGetDefaultMemPool$descriptor() {
        return cudaDeviceGetDefaultMemPool.DESC;
    }

    public static MethodHandle cudaDeviceGetDefaultMemPool$handle() {
        return cudaDeviceGetDefaultMemPool.HANDLE;
    }

    public static MemorySegment cudaDeviceGetDefaultMemPool$address() {
        return cudaDeviceGetDefaultMemPool.ADDR;
    }

    public static int cudaDeviceGetDefaultMemPool(MemorySegment memPool, int device) {
        var mh$ = cudaDeviceGetDefaultMemPool.HANDLE;
        try {
            return (int) mh$.invokeExact(memPool, device);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaMemPoolSetAttribute {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaMemPoolSetAttribute");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) } */
    public static FunctionDescriptor cudaMemPoolSetAttribute$descriptor() {
        return cudaMemPoolSetAttribute.DESC;
    }

    public static MethodHandle cudaMemPoolSetAttribute$handle() {
        return cudaMemPoolSetAttribute.HANDLE;
    }

    public static MemorySegment cudaMemPoolSetAttribute$address() {
        return cudaMemPoolSetAttribute.ADDR;
    }

    public static int cudaMemPoolSetAttribute(MemorySegment memPool, int attr, MemorySegment value) {
        var mh$ = cudaMemPoolSetAttribute.HANDLE;
        try {
            return (int) mh$.invokeExact(memPool, attr, value);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaHostAlloc {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_INT);
        static final MemorySegment ADDR = findOrThrow("cudaHostAlloc");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) } */
    public static FunctionDescriptor cudaHostAlloc$descriptor() {
        return cudaHostAlloc.DESC;
    }

    public static MethodHandle cudaHostAlloc$handle() {
        return cudaHostAlloc.HANDLE;
    }

    public static MemorySegment cudaHostAlloc$address() {
        return cudaHostAlloc.ADDR;
    }

    public static int cudaHostAlloc(MemorySegment pHost, long size, int flags) {
        var mh$ = cudaHostAlloc.HANDLE;
        try {
            return (int) mh$.invokeExact(pHost, size, flags);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaFreeHost {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaFreeHost");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaFreeHost(void *ptr) } */
    public static FunctionDescriptor cudaFreeHost$descriptor() {
        return cudaFreeHost.DESC;
    }

    public static MethodHandle cudaFreeHost$handle() {
        return cudaFreeHost.HANDLE;
    }

    public static MemorySegment cudaFreeHost$address() {
        return cudaFreeHost.ADDR;
    }

    public static int cudaFreeHost(MemorySegment ptr) {
        var mh$ = cudaFreeHost.HANDLE;
        try {
            return (int) mh$.invokeExact(ptr);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaMemcpyAsync {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG, C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaMemcpyAsync");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream) } */
    public static FunctionDescriptor cudaMemcpyAsync$descriptor() {
        return cudaMemcpyAsync.DESC;
    }

    public static MethodHandle cudaMemcpyAsync$handle() {
        return cudaMemcpyAsync.HANDLE;
    }

    public static MemorySegment cudaMemcpyAsync$address() {
        return cudaMemcpyAsync.ADDR;
    }

    public static int cudaMemcpyAsync(MemorySegment dst, MemorySegment src, long count, int kind, MemorySegment stream) {
        var mh$ = cudaMemcpyAsync.HANDLE;
        try {
            return (int) mh$.invokeExact(dst, src, count, kind, stream);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaMemsetAsync {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_LONG, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("cudaMemsetAsync");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) } */
    public static FunctionDescriptor cudaMemsetAsync$descriptor() {
        return cudaMemsetAsync.DESC;
    }

    public static MethodHandle cudaMemsetAsync$handle() {
        return cudaMemsetAsync.HANDLE;
    }

    public static MemorySegment cudaMemsetAsync$address() {
        return cudaMemsetAsync.ADDR;
    }

    public static int cudaMemsetAsync(MemorySegment devPtr, int value, long count, MemorySegment stream) {
        var mh$ = cudaMemsetAsync.HANDLE;
        try {
            return (int) mh$.invokeExact(devPtr, value, count, stream);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaGetLastError {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT);
        static final MemorySegment ADDR = findOrThrow("cudaGetLastError");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : cudaError_t cudaGetLastError(void) } */
    public static FunctionDescriptor cudaGetLastError$descriptor() {
        return cudaGetLastError.DESC;
    }

    public static MethodHandle cudaGetLastError$handle() {
        return cudaGetLastError.HANDLE;
    }

    public static MemorySegment cudaGetLastError$address() {
        return cudaGetLastError.ADDR;
    }

    public static int cudaGetLastError() {
        var mh$ = cudaGetLastError.HANDLE;
        try {
            return (int) mh$.invokeExact();
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaGetErrorName {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("cudaGetErrorName");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : const char *cudaGetErrorName(cudaError_t error) } */
    public static FunctionDescriptor cudaGetErrorName$descriptor() {
        return cudaGetErrorName.DESC;
    }

    public static MethodHandle cudaGetErrorName$handle() {
        return cudaGetErrorName.HANDLE;
    }

    public static MemorySegment cudaGetErrorName$address() {
        return cudaGetErrorName.ADDR;
    }

    public static MemorySegment cudaGetErrorName(int error) {
        var mh$ = cudaGetErrorName.HANDLE;
        try {
            return (MemorySegment) mh$.invokeExact(error);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }

    private static final class cudaGetErrorString {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("cudaGetErrorString");
        static final MethodHandle HANDLE = LINKER.downcallHandle(ADDR, DESC);
    }

    /** {@snippet lang=c : const char *cudaGetErrorString(cudaError_t error) } */
    public static FunctionDescriptor cudaGetErrorString$descriptor() {
        return cudaGetErrorString.DESC;
    }

    public static MethodHandle cudaGetErrorString$handle() {
        return cudaGetErrorString.HANDLE;
    }

    public static MemorySegment cudaGetErrorString$address() {
        return cudaGetErrorString.ADDR;
    }

    public static MemorySegment cudaGetErrorString(int error) {
        var mh$ = cudaGetErrorString.HANDLE;
        try {
            return (MemorySegment) mh$.invokeExact(error);
        } catch (Throwable ex$) {
            throw cuzk_h.unexpected(ex$);
        }
    }
}
