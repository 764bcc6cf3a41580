package io.cuzk.cli;

import io.cuzk.Cuzk;
import java.io.PrintStream;
import java.util.Set;

/** {@code cuzk info}: what native library is loaded and how it was built. */
final class InfoCommand {
    static final Set<String> OPTIONS = Set.of();

    private InfoCommand() {}

    static int run(Options opts, PrintStream out) {
        Cuzk.LibraryInfo info = Cuzk.libraryInfo();
        out.println("cuzk " + info.version() + " (ABI " + info.abiVersion() + ")");
        out.println("library:  " + info.path());
        out.println("build:    " + info.build());
        out.println("threads:  " + info.hardwareThreads());
        out.println("CPU path: " + info.cpuIsa() + " (available: " + info.availableCpuIsas() + ")");
        out.println("CUDA:     " + (info.cudaCompiled() ? "kernels compiled in" : "not compiled in"));
        out.println("NTT:      up to 2^" + info.maxNttLogSize());
        return Main.OK;
    }
}
