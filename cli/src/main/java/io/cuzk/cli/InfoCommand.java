package io.cuzk.cli;

import io.cuzk.BackendChoice;
import io.cuzk.Cuzk;
import java.io.PrintStream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/** {@code cuzk info}: what native library is loaded and how it was built. */
final class InfoCommand implements CliCommand {
    @Override
    public CommandSpec spec() {
        return Specs.command("info", "The native library: version, build, threads, CPU code paths, CUDA, and what --backend auto "
                + "chooses.");
    }

    @Override
    public int run(Main root, ParseResult parsed) {
        PrintStream out = root.out;
        Cuzk.LibraryInfo info = Cuzk.libraryInfo();
        out.println("cuzk " + info.version() + " (ABI " + info.abiVersion() + ")");
        out.println("library:  " + info.location());
        out.println("build:    " + info.build());
        out.println("threads:  " + info.hardwareThreads());
        out.println("CPU path: " + info.cpuIsa() + " (available: " + info.availableCpuIsas() + ")");
        out.println("CUDA:     " + (info.cudaCompiled() ? "libcuzk_cuda built (sm_90 + PTX)" : "not built (no nvcc at build time)"));
        BackendChoice choice = BackendChoice.auto();
        out.println("backend:  auto chooses " + choice.backend().name()
                + (choice.fallbackReason() == null ? "" : " (" + choice.fallbackReason() + ")"));
        out.println("NTT:      up to 2^" + info.maxNttLogSize());
        return Main.OK;
    }
}
