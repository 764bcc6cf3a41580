package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.cuzk_h;
import io.cuzk.internal.cuzk_library_info;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/** Facts about the loaded native library. */
public final class Cuzk {
    private Cuzk() {}

    /** What {@code cuzk_get_library_info} reports. */
    public record LibraryInfo(int abiVersion, boolean cudaCompiled, int hardwareThreads, int maxNttLogSize, String version,
            String build, Path path) {}

    /** Loads the library if needed and describes it. */
    public static LibraryInfo libraryInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment info = cuzk_library_info.allocate(a);
            Checked.check(cuzk_h.cuzk_get_library_info(info), "cuzk_get_library_info");
            return new LibraryInfo(cuzk_library_info.abi_version(info), cuzk_library_info.cuda_compiled(info) != 0,
                    cuzk_library_info.hardware_threads(info), cuzk_library_info.max_ntt_log_size(info),
                    cuzk_library_info.version(info).getString(0), cuzk_library_info.build(info).getString(0),
                    NativeLibrary.path());
        }
    }
}
