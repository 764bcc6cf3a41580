package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.BackendChoice;
import java.io.PrintStream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/** The options that choose where kernels run, shared by the commands that prove. */
final class Backends {
    private Backends() {}

    enum Kind {
        CPU, CUDA, AUTO
    }

    /** Adds --backend, --device and --threads. */
    static void addOptions(CommandSpec spec) {
        spec.addOption(Specs.option("--backend", "cpu|cuda|auto", Kind.class, "cpu",
                "where the kernels run: the CPU, a CUDA GPU, or the GPU where one works and the CPU otherwise"));
        spec.addOption(Specs.option("--device", "N", int.class, "0", "the CUDA device's ordinal"));
        spec.addOption(Specs.option("--threads", "N", int.class, "0", "CPU threads for the kernels and their host work, 0 = all"));
    }

    /** The backend the options chose; auto says on log (if not null) what it chose and why. */
    static Backend backend(ParseResult parsed, PrintStream log) {
        int threads = Specs.intValue(parsed, "--threads", 0, 4096);
        int device = Specs.intValue(parsed, "--device", 0, 1024);
        Kind kind = Specs.value(parsed, "--backend");
        return switch (kind) {
            case CPU -> Backend.cpu(threads);
            case CUDA -> Backend.cuda(device);
            case AUTO -> {
                BackendChoice choice = BackendChoice.auto();
                if (log != null) {
                    log.println("cuzk: backend auto: " + (choice.fallbackReason() == null ? choice.backend().name()
                            : "cpu, because " + choice.fallbackReason()));
                }
                yield choice.fallbackReason() == null ? choice.backend() : Backend.cpu(threads);
            }
        };
    }
}
