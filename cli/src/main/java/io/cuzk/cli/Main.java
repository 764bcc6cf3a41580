package io.cuzk.cli;

import io.cuzk.Cuzk;
import io.cuzk.CuzkException;
import io.cuzk.InvalidPointException;
import io.cuzk.NativeLibraryException;
import io.cuzk.groth16.FormatException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import jdk.jfr.FlightRecorder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The {@code cuzk} command. Without arguments it runs its default job, proving the bundled sample;
 * {@code cuzk <command> --help} describes each command (picocli writes the help from the options
 * themselves, so it cannot disagree with them).
 *
 * <p>Exit status: 0 success, 1 invalid input, 2 usage error, 3 an environment, native or internal
 * failure.
 */
@Command(name = "cuzk", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = {"Groth16 proofs and their kernels (MSM, NTT) on the CPU or a CUDA GPU, for snarkjs keys and witnesses.",
            "Without a command it proves the bundled sample (Poseidon on BN254) into out/proof.json and out/public.json."},
        subcommands = {SampleCommand.class, ProveCommand.class, WorkloadCommand.class, MsmCommand.class, DemoCommand.class,
            GpuBenchCommand.class, InfoCommand.class, CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:success", "1:invalid input (a file, a point, a witness)", "2:usage error",
            "3:environment, native or internal failure"})
public final class Main implements Callable<Integer> {
    static final int OK = 0;
    static final int BAD_INPUT = 1;
    static final int USAGE = 2;
    static final int FAILURE = 3;

    final InputStream in;
    final PrintStream out;
    final PrintStream err;

    @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT, description = "print the stack trace of a failure")
    boolean verbose;

    Main(InputStream in, PrintStream out, PrintStream err) {
        this.in = in;
        this.out = out;
        this.err = err;
    }

    /** The default job: {@code cuzk sample} with its defaults. */
    @Override
    public Integer call() {
        return new SampleCommand().run(this);
    }

    public static void main(String[] args) {
        int status = run(args, System.in, System.out, System.err);
        System.out.flush();
        System.err.flush();
        exit(status);
    }

    /**
     * Ends the process once the command's output is flushed. System.exit first looks up the logger
     * of Runtime.exit, which scans every jar on the class path for logging services (15-20 ms of a
     * 0.35 s prove command on 2 cores), and then runs the shutdown hooks. Without hooks that have
     * work to do the command needs neither and halts; the hooks that do are the deletion of
     * temporary copies of the native libraries and a flight recording's dump.
     */
    static void exit(int status) {
        if (Cuzk.needsShutdownHooks() || flightRecording()) {
            System.exit(status);
        }
        Runtime.getRuntime().halt(status);
    }

    private static boolean flightRecording() {
        try {
            return FlightRecorder.isInitialized();
        } catch (LinkageError e) {
            return false; // a runtime image without jdk.jfr records nothing
        }
    }

    /** Runs one command line; returns the exit status. */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        Main main = new Main(in, out, err);
        CommandLine cl = new CommandLine(main);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(Main::usageError);
        cl.setExecutionExceptionHandler((e, command, parsed) -> failure(main, command, e));
        return cl.execute(args);
    }

    /** A usage error: one line naming it, then the usage of the command it was given to. */
    private static int usageError(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(cmd.getCommandSpec().qualifiedName() + ": " + e.getMessage());
        err.print(cmd.getUsageMessage(cmd.getColorScheme()));
        err.flush();
        return USAGE;
    }

    /** A failure while a command ran: one line, its exit status by kind. */
    private static int failure(Main main, CommandLine command, Exception e) {
        String name = command.getCommandSpec().qualifiedName();
        int status;
        String message;
        if (e instanceof InvalidInputException || e instanceof InvalidPointException || e instanceof FormatException
                || e instanceof IllegalArgumentException) {
            status = BAD_INPUT;
            message = e.getMessage();
        } else if (e instanceof UncheckedIOException io) {
            status = BAD_INPUT;
            message = io.getCause().getMessage();
        } else if (e instanceof NativeLibraryException) {
            main.err.println(e.getMessage()); // it says "cuzk: " and what is missing already
            if (main.verbose) {
                e.printStackTrace(main.err);
            }
            return FAILURE;
        } else if (e instanceof CuzkException) {
            status = FAILURE;
            message = e.getMessage();
        } else {
            status = FAILURE;
            message = "internal error: " + e;
        }
        main.err.println(name + ": " + message);
        if (main.verbose) {
            e.printStackTrace(main.err);
        }
        return status;
    }

    /** {@code cuzk --version}: the command's and the native library's versions. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            String lib;
            try {
                Cuzk.LibraryInfo info = Cuzk.libraryInfo();
                lib = "native library " + info.version() + " (ABI " + info.abiVersion() + "), " + info.path();
            } catch (RuntimeException | LinkageError e) {
                lib = "native library not loadable: " + e.getMessage();
            }
            return new String[] {"cuzk " + (version == null ? "(development build)" : version), lib,
                "Java " + Runtime.version() + " (" + System.getProperty("java.home") + ")"};
        }
    }
}
