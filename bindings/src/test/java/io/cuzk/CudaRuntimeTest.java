package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cuzk.cuda.CudaRuntime;
import io.cuzk.cuda.Device;
import io.cuzk.cuda.DeviceBuffer;
import io.cuzk.cuda.PinnedBuffer;
import io.cuzk.cuda.Staging;
import io.cuzk.cuda.Stream;
import io.cuzk.internal.CudaLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The FFM bindings of libcudart where it is installed: versions, error names and messages, and the
 * device count; without a driver (as on CI) the count must fail as CUDA says it does, with a typed
 * exception naming the call and the error. Where even the runtime is absent, the tests skip and say so.
 */
class CudaRuntimeTest {
    static void needRuntime() {
        String why = null;
        try {
            CudaLibrary.lookup();
        } catch (NativeLibraryException e) {
            why = e.getMessage();
        }
        assumeTrue(why == null, "the CUDA runtime is not installed here: " + why);
    }

    @Test
    void errorNamesAndStringsComeFromTheRuntime() {
        needRuntime();
        assertEquals("cudaErrorInsufficientDriver", CudaRuntime.errorName(35));
        assertEquals("cudaErrorMemoryAllocation", CudaRuntime.errorName(2));
        assertTrue(CudaRuntime.errorString(35).toLowerCase().contains("driver"), CudaRuntime.errorString(35));
        CudaException e = new CudaException("cudaFoo", 2, CudaRuntime.errorName(2), CudaRuntime.errorString(2));
        assertEquals("cudaFoo", e.call());
        assertEquals(Status.CUDA, e.status());
        assertTrue(e.getMessage().startsWith("cudaFoo failed: cudaErrorMemoryAllocation (2): "), e.getMessage());
    }

    @Test
    void versionsAndDevicesOrTheReasonThereAreNone() {
        needRuntime();
        assertTrue(CudaRuntime.runtimeVersion() >= 13000, "CUDA 13 runtime: " + CudaRuntime.runtimeVersion());
        int driver = CudaRuntime.driverVersion();
        int count;
        try {
            count = CudaRuntime.deviceCount();
        } catch (CudaException e) {
            // no usable driver or device: what CUDA reports must arrive typed and named
            assertEquals("cudaGetDeviceCount", e.call());
            assertTrue(Set.of("cudaErrorInsufficientDriver", "cudaErrorNoDevice").contains(e.cudaErrorName()), e.getMessage());
            assertTrue(e.cudaError() == 35 || e.cudaError() == 100, e.getMessage());
            if (e.cudaError() == 35) {
                assertTrue(driver < CudaRuntime.runtimeVersion(), "insufficient driver " + driver);
            }
            return;
        }
        assertTrue(count >= 1);
        Device.Properties p = Device.get(0).properties();
        assertTrue(p.multiprocessors() > 0 && p.totalGlobalMemory() > 0 && p.computeMajor() >= 5, p.toString());
        assertTrue(!p.name().isBlank());
    }

    /** Backend.auto() falls back to the CPU with a reason where no device can be used, and picks CUDA where one can. */
    @Test
    void autoChoosesWhatIsThere() {
        BackendChoice choice = BackendChoice.auto();
        String reason = CudaBackend.unavailableReason();
        if (reason != null) {
            assertInstanceOf(CpuBackend.class, choice.backend());
            assertTrue(choice.fallbackReason() != null && !choice.fallbackReason().isBlank());
        } else {
            assertInstanceOf(CudaBackend.class, choice.backend());
        }
    }

    /**
     * Staged copies: pageable host memory through two pinned chunks (three chunks and a partial
     * one, at an offset into the device buffer), and pinned memory directly, both ways, bytes equal.
     */
    @Test
    void stagedCopiesRoundTrip() {
        String skip = CudaTests.noDeviceReason("staged copies");
        assumeTrue(skip == null, skip);
        Device device = Device.get(0);
        long size = 3 * 4096 + 100;
        byte[] bytes = new byte[(int) size];
        new Random(3).nextBytes(bytes);
        try (Arena a = Arena.ofShared();
                Staging st = Staging.create(device, 4096);
                Stream s = Stream.create(device);
                PinnedBuffer pinned = PinnedBuffer.allocate(size);
                DeviceBuffer d = DeviceBuffer.allocate(s, size + 64)) {
            MemorySegment pageable = a.allocate(size);
            MemorySegment.copy(bytes, 0, pageable, ValueLayout.JAVA_BYTE, 0, bytes.length);
            assertFalse(Staging.isPinned(pageable), "malloc'd memory is pageable");
            assertTrue(Staging.isPinned(pinned.segment()), "cudaHostAlloc'd memory is pinned");
            st.upload(pageable, d, 64, s);
            st.download(d, 64, pinned.segment(), s);
            assertArrayEquals(bytes, pinned.segment().toArray(ValueLayout.JAVA_BYTE), "pageable -> device -> pinned");
            MemorySegment back = a.allocate(size);
            st.upload(pinned.segment(), d, 64, s);
            st.download(d, 64, back, s);
            assertArrayEquals(bytes, back.toArray(ValueLayout.JAVA_BYTE), "pinned -> device -> pageable");
        }
    }
}
