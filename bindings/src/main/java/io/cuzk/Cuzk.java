package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.CriticalCalls;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_library_info;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/** Facts about the loaded native library. */
public final class Cuzk {
    private Cuzk() {}

    /**
     * What {@code cuzk_get_library_info} reports: among it the CPU code path in use and those this
     * CPU and build can run; location says where the library was loaded from (a file, or a checked
     * in-memory copy of the packed one).
     */
    public record LibraryInfo(int abiVersion, boolean cudaCompiled, int hardwareThreads, int maxNttLogSize, CpuIsa cpuIsa,
            Set<CpuIsa> availableCpuIsas, String version, String build, String location) {}

    /**
     * The ABI version of the loaded library ({@code cuzk_abi_version}, a critical downcall: no
     * thread-state transition). The loader refuses a library whose version differs from the
     * bindings', so this is what the bindings were generated for.
     */
    public static int abiVersion() {
        NativeLibrary.require();
        return CriticalCalls.cuzk_abi_version();
    }

    /** Loads the library if needed and describes it. */
    public static LibraryInfo libraryInfo() {
        NativeLibrary.require();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment info = cuzk_library_info.allocate(a);
            Checked.check(cuzk_h.cuzk_get_library_info(info), "cuzk_get_library_info");
            Set<CpuIsa> available = EnumSet.noneOf(CpuIsa.class);
            int mask = cuzk_library_info.cpu_isa_available(info);
            for (CpuIsa isa : CpuIsa.values()) {
                if (isa != CpuIsa.AUTO && (mask & (1 << isa.id())) != 0) {
                    available.add(isa);
                }
            }
            return new LibraryInfo(cuzk_library_info.abi_version(info), cuzk_library_info.cuda_compiled(info) != 0,
                    cuzk_library_info.hardware_threads(info), cuzk_library_info.max_ntt_log_size(info),
                    CpuIsa.of(cuzk_library_info.cpu_isa(info)), Set.copyOf(available),
                    cuzk_library_info.version(info).getString(0), cuzk_library_info.build(info).getString(0),
                    NativeLibrary.location());
        }
    }

    /**
     * Chooses the CPU code path of every kernel in this process (by default the best available;
     * the environment variable {@code CUZK_CPU_ISA=portable} also forces the portable one). Throws
     * {@link CuzkException} with status UNSUPPORTED when this CPU or build cannot run it.
     */
    public static void setCpuIsa(CpuIsa isa) {
        NativeLibrary.require();
        Checked.check(cuzk_h.cuzk_set_cpu_isa(isa.id()), "cuzk_set_cpu_isa");
    }
}
