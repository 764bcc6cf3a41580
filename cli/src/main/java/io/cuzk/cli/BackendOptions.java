package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.BackendChoice;
import java.io.PrintStream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options that choose where kernels run, shared by the commands that prove. */
final class BackendOptions {
    enum Kind {
        CPU, CUDA, AUTO
    }

    @Option(names = "--backend", paramLabel = "cpu|cuda|auto", defaultValue = "cpu",
            description = "where the kernels run: the CPU, a CUDA GPU, or the GPU where one works and the CPU otherwise (default: ${DEFAULT-VALUE})")
    Kind backend = Kind.CPU;

    @Option(names = "--device", paramLabel = "N", defaultValue = "0", description = "the CUDA device's ordinal (default: ${DEFAULT-VALUE})")
    int device;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "0",
            description = "CPU threads for the kernels and their host work, 0 = all hardware threads (default: ${DEFAULT-VALUE})")
    int threads;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** The backend chosen; auto says on log (if not null) what it chose and why. */
    Backend backend(PrintStream log) {
        Ranges.check(command, "--threads", threads, 0, 4096);
        Ranges.check(command, "--device", device, 0, 1024);
        return switch (backend) {
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
