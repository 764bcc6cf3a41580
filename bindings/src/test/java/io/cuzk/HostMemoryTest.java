package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cuzk.internal.Checked;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_host_config;
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

    /** copyOf: an aligned copy of any source in one native pass (a section of a mapped file). */
    @Test
    void copiesAreAlignedAndExact() {
        java.util.Random rnd = new java.util.Random(7);
        try (Arena src = Arena.ofConfined()) {
            for (long bytes : new long[] {0, 100, HostMemory.NATIVE_MIN + 3, 2 * HostMemory.HUGE_MIN + 12}) {
                MemorySegment from = src.allocate(bytes + 5, 8).asSlice(5); // unaligned, like a file's section
                byte[] data = new byte[(int) bytes];
                rnd.nextBytes(data);
                MemorySegment.copy(data, 0, from, ValueLayout.JAVA_BYTE, 0, data.length);
                try (Arena arena = Arena.ofConfined()) {
                    // a freed mapping full of other bytes may be reused: the copy must cover it
                    HostMemory.allocate(arena, bytes).fill((byte) 0x5a);
                }
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment c = HostMemory.copyOf(arena, from);
                    assertEquals(bytes, c.byteSize());
                    assertEquals(0, c.address() % 64, bytes + " bytes");
                    assertArrayEquals(data, c.toArray(ValueLayout.JAVA_BYTE), bytes + " bytes");
                    MemorySegment h = HostMemory.copyOf(arena, MemorySegment.ofArray(data)); // a heap source
                    assertArrayEquals(data, h.toArray(ValueLayout.JAVA_BYTE));
                }
            }
        }
        MemorySegment gone;
        try (Arena a = Arena.ofConfined()) {
            gone = a.allocate(HostMemory.HUGE_MIN);
        }
        MemorySegment closed = gone;
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalStateException.class, () -> HostMemory.copyOf(arena, closed));
        }
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
            MemorySegment cfg = cuzk_host_config.allocate(a);
            MemorySegment none = MemorySegment.NULL;
            CuzkException e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_host_alloc(cfg, out, none, none), "cuzk_host_alloc"));
            assertEquals(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.nativeMessage().contains("0 bytes"), e.nativeMessage());
            cuzk_host_config.bytes(cfg, 1L << 60);
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_host_alloc(cfg, out, none, none), "cuzk_host_alloc"));
            assertEquals(Status.INVALID_ARGUMENT, e.status());
            cuzk_host_config.bytes(cfg, 1 << 20);
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_host_alloc(cfg, none, none, none), "cuzk_host_alloc"));
            assertTrue(e.nativeMessage().contains("out is null"), e.nativeMessage());
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_host_alloc(none, out, none, none), "cuzk_host_alloc"));
            assertTrue(e.nativeMessage().contains("config is null"), e.nativeMessage());
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_host_alloc(cfg, out, none, out), "cuzk_host_alloc"));
            assertTrue(e.nativeMessage().contains("reserved"), e.nativeMessage());
            cuzk_host_config.flags(cfg, 1);
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_host_alloc(cfg, out, none, none), "cuzk_host_alloc"));
            assertTrue(e.nativeMessage().contains("reserved"), e.nativeMessage());
            cuzk_host_config.flags(cfg, 0);
            cuzk_host_config.bytes(cfg, 0);
            Checked.check(cuzk_h.cuzk_host_free(cfg, none, none, none), "cuzk_host_free"); // freeing nothing is allowed
            e = assertThrows(CuzkException.class, () -> Checked.check(cuzk_h.cuzk_host_free(cfg, none, out, none), "cuzk_host_free"));
            assertTrue(e.nativeMessage().contains("reserved"), e.nativeMessage());
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
