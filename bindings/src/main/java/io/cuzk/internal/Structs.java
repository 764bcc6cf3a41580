package io.cuzk.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Pointer fields of the ABI's config structs, written by hand beside the generated accessors
 * (jextract's write through an AddressLayout makes the JDK generate that layout's var handle on
 * first use: about 15 ms of a one-shot proof command). The library is built for 64-bit platforms
 * only, and LayoutTest checks that every pointer field is 8 bytes.
 */
public final class Structs {
    private Structs() {}

    /**
     * Stores the address of value (NULL allowed) at offset in struct. A segment that is no longer
     * alive (its key or arena was closed) is refused here, with the FFM's IllegalStateException,
     * instead of handing the library a pointer to unmapped memory: unlike a downcall's arguments,
     * a pointer inside a struct is not checked by the linker.
     */
    public static void setAddress(MemorySegment struct, long offset, MemorySegment value) {
        if (!value.equals(MemorySegment.NULL) && !value.scope().isAlive()) {
            throw new IllegalStateException("Already closed: the memory passed to the native library was released");
        }
        struct.set(ValueLayout.JAVA_LONG, offset, value.address());
    }
}
