package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cuzk.internal.Checked;
import io.cuzk.internal.cuzk_h;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.lang3.SystemUtils;
import org.junit.jupiter.api.Test;

/** Large buffers from cuzk_host_alloc: zero-filled, aligned, usable, freed with their arena. */
class HostMemoryTest {
    @Test
    void largeBuffersAreZeroAlignedWritableAndGoneWithTheirArena() {
        long bytes = 3 * HostMemory.HUGE_MIN + 40; // not a whole number of huge pages
        MemorySegment s;
        try (Arena arena = Arena.ofShared()) {
            s = HostMemory.allocate(arena, bytes);
            assertEquals(bytes, s.byteSize());
            assertEquals(0, s.address() % 64);
            if (SystemUtils.IS_OS_LINUX) {
                assertEquals(0, s.address() % (2L << 20), "a mapping aligned to the 2 MiB huge page");
            }
            for (long i = 0; i < bytes; i += 4096) {
                assertEquals(0, s.get(ValueLayout.JAVA_BYTE, i), "zero-filled at " + i);
            }
            assertEquals(0, s.get(ValueLayout.JAVA_BYTE, bytes - 1));
            s.fill((byte) 0x5a);
            assertEquals(0x5a, s.get(ValueLayout.JAVA_BYTE, bytes - 1));
        }
        MemorySegment closed = s;
        assertThrows(IllegalStateException.class, () -> closed.get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void mediumBuffersAreZeroFilledNatively() {
        long bytes = HostMemory.NATIVE_MIN + 8;
        MemorySegment s;
        try (Arena arena = Arena.ofConfined()) {
            s = HostMemory.allocate(arena, bytes);
            assertEquals(bytes, s.byteSize());
            assertEquals(0, s.address() % 64);
            for (long i = 0; i < bytes; i += 8) {
                assertEquals(0, s.get(ValueLayout.JAVA_LONG_UNALIGNED, i), "zero-filled at " + i);
            }
            s.fill((byte) 1);
        }
        MemorySegment closed = s;
        assertThrows(IllegalStateException.class, () -> closed.get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void smallBuffersComeFromTheArenaZeroFilled() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = HostMemory.allocate(arena, 1000);
            assertEquals(1000, s.byteSize());
            assertEquals(0, s.address() % 64);
            assertEquals(0, s.get(ValueLayout.JAVA_LONG, 992));
            assertEquals(0, HostMemory.allocate(arena, 0).byteSize());
        }
        assertThrows(IllegalArgumentException.class, () -> HostMemory.allocate(Arena.global(), -1));
    }

    /** Virtual size, which counts mappings whether touched or not, must not grow by what was freed. */
    @Test
    void closingTheArenaUnmapsTheBuffer() throws IOException {
        assumeTrue(SystemUtils.IS_OS_LINUX, "reads /proc/self/status, which only Linux has");
        long before = vmSizeKiB();
        for (int i = 0; i < 40; i++) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment s = HostMemory.allocate(arena, 256L << 20);
                s.set(ValueLayout.JAVA_LONG, s.byteSize() - 8, i);
            }
        }
        long grown = vmSizeKiB() - before;
        assertTrue(grown < (256L << 10), "40 buffers of 256 MiB were freed, yet the virtual size grew by " + grown + " KiB");
    }

    @Test
    void theNativeCallsRefuseBadArguments() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.ADDRESS);
            CuzkException e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_host_alloc(0, out), "cuzk_host_alloc"));
            assertEquals(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.nativeMessage().contains("0 bytes"), e.nativeMessage());
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_host_alloc(1L << 60, out), "cuzk_host_alloc"));
            assertEquals(Status.INVALID_ARGUMENT, e.status());
            e = assertThrows(CuzkException.class,
                    () -> Checked.check(cuzk_h.cuzk_host_alloc(1 << 20, MemorySegment.NULL), "cuzk_host_alloc"));
            assertTrue(e.nativeMessage().contains("out is null"), e.nativeMessage());
            Checked.check(cuzk_h.cuzk_host_free(0, MemorySegment.NULL), "cuzk_host_free"); // freeing nothing is allowed
        }
    }

    static long vmSizeKiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmSize:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmSize in /proc/self/status");
    }
}
