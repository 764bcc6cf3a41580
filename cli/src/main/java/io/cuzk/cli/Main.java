package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.Cuzk;
import io.cuzk.CuzkException;
import io.cuzk.InvalidPointException;
import io.cuzk.NativeLibraryException;
import io.cuzk.engine.PartitionFailedException;
import io.cuzk.groth16.FormatException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import jdk.jfr.FlightRecorder;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The {@code cuzk} command. Without arguments it runs its default job, proving the bundled sample;
 * {@code cuzk <command> --help} describes each command (picocli writes the help from the commands'
 * option specs, so it cannot disagree with them).
 *
 * <p>Exit status: 0 success, 1 invalid input, 2 usage error, 3 an environment, native or internal
 * failure.
 */
public final class Main {
    static final int OK = 0;
    static final int BAD_INPUT = 1;
    static final int USAGE = 2;
    static final int FAILURE = 3;

    static {
        // Before picocli's classes initialise: it would look for Groovy's Closure class (a search of
        // every jar on the class path for a class that is not there) and register reflective
        // converters for java.sql and java.time types no option here takes, and for paths, which
        // Specs converts itself: about 20 ms of a start.
        if (System.getProperty("picocli.disable.closures") == null) {
            System.setProperty("picocli.disable.closures", "true");
        }
        if (System.getProperty("picocli.converters.excludes") == null) {
            System.setProperty("picocli.converters.excludes", "java\\.sql\\..*,java\\.time\\..*,java\\.nio\\.file\\.Path");
        }
    }

    /**
     * The subcommands, in the order the help lists them. Lambdas, not constructor references: a
     * reference loads (and verifies) its class when the map is built, every command's for each start.
     */
    static final Map<String, Supplier<CliCommand>> COMMANDS = commands();

    private static Map<String, Supplier<CliCommand>> commands() {
        Map<String, Supplier<CliCommand>> m = new LinkedHashMap<>();
        m.put("sample", () -> new SampleCommand());
        m.put("prove", () -> new ProveCommand());
        m.put("verify", () -> new VerifyCommand());
        m.put("export-vk", () -> new ExportCommands.VerificationKeyCommand());
        m.put("export-calldata", () -> new ExportCommands.CalldataCommand());
        m.put("wtns", () -> new WitnessCommands.CalculateCommand());
        m.put("fullprove", () -> new WitnessCommands.FullproveCommand());
        m.put("workload", () -> new WorkloadCommand());
        m.put("msm", () -> new MsmCommand());
        m.put("msm-demo", () -> new DemoCommand());
        m.put("gpu-bench", () -> new GpuBenchCommand());
        m.put("info", () -> new InfoCommand());
        m.put("serve", () -> new ServeCommand());
        m.put("status", () -> new Remote.StatusCommand());
        return m;
    }

    final InputStream in;
    final PrintStream out;
    final PrintStream err;
    boolean verbose;
    boolean json;
    /**
     * Whether the process talks to a terminal (System.console(): stdin and stdout are one), for the
     * progress lines meant for people watching, not for logs or pipes; false when run in process.
     * Asked only by the commands that print progress: the check costs a proof's start nothing.
     */
    boolean errIsTerminal() {
        if (err != System.err) {
            return false;
        }
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }

    Main(InputStream in, PrintStream out, PrintStream err) {
        this.in = in;
        this.out = out;
        this.err = err;
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
     * work to do the command needs neither and halts; the hook that does is a flight recording's
     * dump (the native library leaves no file behind to delete).
     */
    static void exit(int status) {
        if (needsShutdownHooks()) {
            System.exit(status);
        }
        Runtime.getRuntime().halt(status);
    }

    static boolean needsShutdownHooks() {
        return flightRecording();
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
        String named = commandNamed(args);
        if (named == null || named.equals("prove") || named.equals("sample")) {
            // a proof's native calls are linked while the arguments are parsed (see Backend.link)
            Thread.ofPlatform().daemon().name("cuzk-link").start(() -> Backend.cpu().link());
        } else if (named.equals("verify")) {
            // the same for a verification's calls, while its files are read
            Thread.ofPlatform().daemon().name("cuzk-link").start(io.cuzk.Pairing::link);
        }
        Main main = new Main(in, out, err);
        CommandLine cl = commandLine(args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(Main::usageError);
        cl.setExecutionStrategy(parsed -> main.execute(parsed));
        return cl.execute(args.length > 0 && COMMANDS.containsKey(args[0]) ? Arrays.copyOfRange(args, 1, args.length) : args);
    }

    /**
     * The command line for these arguments: the root, and the subcommand they name, or every
     * subcommand (and help) when they name none or ask for the root's help: a command's start pays
     * for its own options only.
     */
    static CommandLine commandLine(String[] args) {
        if (args.length > 0 && COMMANDS.containsKey(args[0])) {
            // the usual case, the command first: it alone is parsed, under its full name, with the
            // one option it would inherit from the root
            CommandSpec spec = COMMANDS.get(args[0]).get().spec();
            spec.name("cuzk ".concat(args[0]));
            spec.addOption(Specs.flag("--verbose", "print the stack trace of a failure"));
            spec.versionProvider(new Version());
            return new CommandLine(spec);
        }
        CommandSpec root = Specs.command("cuzk", "Groth16 proofs and their kernels (MSM, NTT) on the CPU or a CUDA GPU, for snarkjs "
                + "keys and witnesses. Without a command it proves the bundled sample (Poseidon on BN254) into out/proof.json and "
                + "out/public.json.");
        root.addOption(Specs.inheritedFlag("--verbose", "print the stack trace of a failure"));
        Map<String, String> exits = new LinkedHashMap<>();
        exits.put("0", "success");
        exits.put("1", "invalid input (a file, a point, a witness); for verify: a proof that does not verify");
        exits.put("2", "usage error; for verify also malformed input (snarkjs exits 1 for it, as for an invalid proof)");
        exits.put("3", "environment, native or internal failure");
        root.usageMessage().exitCodeListHeading("%nExit status:%n").exitCodeList(exits);
        root.versionProvider(new Version());
        CommandLine cl = new CommandLine(root);
        String named = commandNamed(args);
        if (named != null && COMMANDS.containsKey(named)) {
            cl.addSubcommand(named, COMMANDS.get(named).get().spec().versionProvider(root.versionProvider()));
        } else {
            for (Map.Entry<String, Supplier<CliCommand>> c : COMMANDS.entrySet()) {
                cl.addSubcommand(c.getKey(), c.getValue().get().spec().versionProvider(root.versionProvider()));
            }
            cl.addSubcommand("help", new CommandLine.HelpCommand());
        }
        return cl;
    }

    /** The first argument that is not an option: the command, if it is one (the root takes flags only). */
    private static String commandNamed(String[] args) {
        for (String a : args) {
            if (!a.startsWith("-")) {
                return a;
            }
        }
        return null;
    }

    /** Runs what was parsed: a help request, the subcommand named, or the default job. */
    private int execute(ParseResult parsed) {
        Integer help = CommandLine.executeHelpRequest(parsed);
        if (help != null) {
            return help;
        }
        ParseResult leaf = parsed;
        while (leaf.hasSubcommand()) {
            leaf = leaf.subcommand();
        }
        verbose = Specs.value(leaf, "--verbose");
        json = leaf.commandSpec().findOption("--json") != null && Boolean.TRUE.equals(Specs.value(leaf, "--json"));
        CommandLine command = leaf.commandSpec().commandLine();
        String name = leaf.commandSpec().name();
        try {
            if (name.startsWith("cuzk ")) { // the command alone (see commandLine)
                return COMMANDS.get(name.substring(5)).get().run(this, leaf);
            }
            if (leaf == parsed) {
                return SampleCommand.run(this, Path.of("out"), 0);
            }
            if (leaf.commandSpec().userObject() instanceof Runnable help2) { // picocli's help command
                help2.run();
                return OK;
            }
            return COMMANDS.get(name).get().run(this, leaf);
        } catch (ParameterException e) {
            throw e;
        } catch (RuntimeException | Error e) {
            return failure(this, command, e);
        }
    }

    /** For a snarkjs command line given to cuzk (cuzk groth16 verify ...), the cuzk command that does it; else "". */
    static String snarkjsHint(String[] args) {
        String first = commandNamed(args);
        if (first == null || COMMANDS.containsKey(first)) {
            return "";
        }
        return switch (first) {
            case "groth16", "g16p", "g16v", "g16f" -> " (snarkjs's groth16 prove, verify and fullprove are cuzk prove, cuzk verify and cuzk "
                    + "fullprove, with the same arguments)";
            case "zkey", "zkev", "zkesc" -> " (snarkjs's zkey export verificationkey and zkey export soliditycalldata are cuzk export-vk and "
                    + "cuzk export-calldata, with the same arguments)";
            case "wc" -> " (snarkjs's wtns calculate is cuzk wtns calculate, with the same arguments)";
            default -> "";
        };
    }

    /**
     * A usage error: one line naming it, then the synopsis of the command it was given to and
     * where its full help is.
     */
    private static int usageError(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        String name = cmd.getCommandSpec().qualifiedName();
        err.println(name + ": " + printable(e.getMessage()) + snarkjsHint(args));
        err.print(cmd.getHelp().synopsis(0));
        err.println("Try '" + name + " --help' for more information.");
        err.flush();
        return USAGE;
    }

    /** A failure while a command ran: one line, its exit status by kind (and with --json, an error object). */
    private static int failure(Main main, CommandLine command, Throwable e) {
        String name = command.getCommandSpec().qualifiedName();
        int status = statusOf(e);
        String message = printable(messageOf(e));
        // a native library's message starts with "cuzk: " and says what is missing already
        main.err.println(e instanceof NativeLibraryException ? message : name + ": " + message);
        if (main.verbose) {
            e.printStackTrace(main.err);
        }
        if (main.json) {
            main.out.println(JsonErrors.errorJson(status, message));
        }
        return status;
    }

    /**
     * A message as one line of plain text: what the user's files bring into it (an input signal's
     * name, a value, a file name) may hold new lines, terminal escapes, NULs or invisible format
     * characters (bidirectional overrides), which are written as escapes (\n, \t, \\u001b) instead.
     */
    static String printable(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 || (c >= 0x7f && c < 0xa0) || c == '\u2028' || c == '\u2029'
                    || Character.getType(c) == Character.FORMAT;
            if (control && b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (b != null) {
                if (!control) {
                    b.append(c);
                } else if (c == '\n') {
                    b.append("\\n");
                } else if (c == '\t') {
                    b.append("\\t");
                } else if (c == '\r') {
                    b.append("\\r");
                } else {
                    b.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        return b == null ? s : b.toString();
    }

    /** The exit status a failure gets: 1 when the input is at fault, 3 otherwise. */
    static int statusOf(Throwable e) {
        Throwable t = unwrap(e);
        if (t instanceof RemoteFailure r) {
            return r.status;
        }
        if (t instanceof InvalidInputException || t instanceof InvalidPointException || t instanceof FormatException
                || t instanceof IllegalArgumentException || t instanceof UncheckedIOException || t instanceof IOException
                || t instanceof io.cuzk.engine.SelfCheckFailedException) { // a proof that does not verify: its witness, as a rule
            return BAD_INPUT;
        }
        return FAILURE;
    }

    /** The one line a failure is reported with: no class names, except for internal errors. */
    static String messageOf(Throwable e) {
        Throwable t = unwrap(e);
        if (t instanceof UncheckedIOException io) {
            return describe(io.getCause());
        }
        if (t instanceof IOException io) {
            return describe(io);
        }
        if (t instanceof OutOfMemoryError) {
            return "out of memory (" + t.getMessage() + "): give the JVM more with CUZK_JAVA_OPTS=-Xmx...";
        }
        if (t instanceof StackOverflowError) {
            return "internal error: stack overflow (run with --verbose for the stack trace)";
        }
        if (t instanceof io.cuzk.engine.SelfCheckFailedException) { // "partition 1: its proof does not verify ..."
            for (Throwable w = e; w != null; w = w.getCause()) {
                if (w instanceof io.cuzk.engine.PartitionFailedException p) {
                    return "partition " + p.partition() + ": " + t.getMessage();
                }
            }
        }
        if ((t instanceof CuzkException || t instanceof InvalidInputException || t instanceof IllegalArgumentException
                || t instanceof RemoteFailure || t instanceof io.cuzk.engine.SelfCheckFailedException)
                && t.getMessage() != null) {
            return t.getMessage();
        }
        return "internal error: " + t + " (run with --verbose for the stack trace)";
    }

    /**
     * The failure a wrapper carries: an engine's partition failure, a future's ExecutionException,
     * a class initializer's error hold the one that says what went wrong.
     */
    private static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && (t instanceof ExecutionException || t instanceof CompletionException
                || t instanceof ExceptionInInitializerError || t instanceof PartitionFailedException)) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * An I/O failure in words, naming the file: the JDK's exceptions carry only the path (a
     * NoSuchFileException's message is the bare path) or the system's reason.
     */
    static String describe(IOException e) {
        if (e instanceof FileSystemException fs && fs.getFile() != null) {
            String reason = fs.getReason();
            if (reason == null) {
                reason = switch (e) {
                    case NoSuchFileException x -> "no such file";
                    case AccessDeniedException x -> "permission denied";
                    case NotDirectoryException x -> "not a folder";
                    case DirectoryNotEmptyException x -> "a folder that is not empty";
                    case FileAlreadyExistsException x -> "exists already";
                    case NotLinkException x -> "not a link";
                    default -> "cannot be used";
                };
            } else if (e instanceof AccessDeniedException) {
                reason = "permission denied (" + reason + ")";
            }
            return fs.getFile() + (fs.getOtherFile() == null ? "" : " -> " + fs.getOtherFile()) + ": " + reason;
        }
        return e.getMessage() == null ? "I/O failure (" + e.getClass().getSimpleName() + ")" : e.getMessage();
    }

    /** {@code cuzk --version}: the command's and the native library's versions. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            String lib;
            try {
                Cuzk.LibraryInfo info = Cuzk.libraryInfo();
                lib = "native library " + info.version() + " (ABI " + info.abiVersion() + "), " + info.location();
            } catch (RuntimeException | LinkageError e) {
                lib = "native library not loadable: " + e.getMessage();
            }
            return new String[] {"cuzk " + (version == null ? "(development build)" : version), lib,
                "Java " + Runtime.version() + " (" + System.getProperty("java.home") + ")"};
        }
    }
}
