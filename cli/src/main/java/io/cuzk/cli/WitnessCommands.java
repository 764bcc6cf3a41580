package io.cuzk.cli;

import io.cuzk.groth16.OutputFiles;
import io.cuzk.groth16.Witness;
import io.cuzk.witness.WitnessCalculator;
import io.cuzk.witness.WitnessException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/** Witnesses without Node: {@code wtns calculate} and {@code fullprove}, with snarkjs's arguments. */
final class WitnessCommands {
    private WitnessCommands() {}

    /**
     * The witness of input.json, as a .wtns file's bytes; the circuit's log() lines go to log (the
     * standard output, as snarkjs prints them, unless the command is quiet).
     */
    static byte[] calculate(Path wasm, Path input, java.util.function.Consumer<String> log) {
        try {
            // a circuit that cannot be loaded names itself; input that does not fit names the signal,
            // and the circuit's own failure its template and line: one line, with the input's file.
            // The input is read and parsed as JSON on another thread while the circuit loads (in
            // the moments the load leaves a core idle: about 5 % of the bundled sample's command);
            // the circuit's errors still come first, as when the input was read after it.
            java.util.concurrent.CompletableFuture<WitnessCalculator.Input> read = new java.util.concurrent.CompletableFuture<>();
            Thread.ofPlatform().daemon().name("cuzk-input").start(() -> {
                try {
                    read.complete(WitnessCalculator.readInput(io.cuzk.groth16.TextFiles.read(input)));
                } catch (Throwable t) {
                    read.completeExceptionally(t);
                }
            });
            WitnessCalculator w = WitnessCalculator.load(wasm, log);
            try {
                return w.wtns(inputOf(read));
            } catch (WitnessException e) {
                throw new InvalidInputException(input + ": " + e.getMessage());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (WitnessException e) {
            throw new InvalidInputException(e.getMessage());
        }
    }

    /** The input the second thread read, or what it threw, as if thrown here. */
    private static WitnessCalculator.Input inputOf(java.util.concurrent.CompletableFuture<WitnessCalculator.Input> read)
            throws IOException {
        try {
            return read.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof IOException io) { // instanceof: a pattern switch spins a class at its first run
                throw io;
            } else if (e.getCause() instanceof RuntimeException r) {
                throw r;
            } else if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** {@code cuzk wtns calculate <circuit.wasm> <input.json> <witness.wtns>}: {@code snarkjs wtns calculate}. */
    static final class CalculateCommand implements CliCommand {
        @Override
        public CommandSpec spec() {
            CommandSpec spec = Specs.command("wtns", "`wtns calculate <circuit.wasm> <input.json> <witness.wtns>`: the witness of a "
                    + "circom circuit's inputs, byte for byte what `snarkjs wtns calculate` writes, without Node (the circuit.wasm runs in "
                    + "the JVM).");
            spec.addPositional(Specs.positional(0, "calculate", String.class, "the action: calculate"));
            spec.addPositional(Specs.positional(1, "<circuit.wasm>", Path.class, "the circuit as circom compiles it to WebAssembly"));
            spec.addPositional(Specs.positional(2, "<input.json>", Path.class, "the input signals"));
            spec.addPositional(Specs.outputFile(3, "<witness.wtns>", "where the witness goes"));
            return spec;
        }

        @Override
        public int run(Main root, ParseResult parsed) {
            String action = Specs.positional(parsed, 0);
            if (!action.equals("calculate")) {
                throw new picocli.CommandLine.ParameterException(parsed.commandSpec().commandLine(), "wtns " + action
                        + ": the action is calculate (wtns calculate <circuit.wasm> <input.json> <witness.wtns>)");
            }
            Path wasm = Specs.positional(parsed, 1), input = Specs.positional(parsed, 2), out = Specs.positional(parsed, 3);
            try {
                OutputFiles.requireDistinct(List.of(out), List.of(wasm, input));
                OutputFiles.requireWritable(List.of(out));
                byte[] wtns = calculate(wasm, input, root.out::println);
                OutputFiles.writeTogether(List.of(out), List.of(wtns));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Main.OK;
        }
    }

    /**
     * {@code cuzk fullprove <input.json> <circuit.wasm> <circuit.zkey> <proof.json> <public.json>}:
     * {@code snarkjs groth16 fullprove}, the witness kept in memory.
     */
    static final class FullproveCommand implements CliCommand {
        @Override
        public CommandSpec spec() {
            CommandSpec spec = Specs.command("fullprove", "The witness of input.json and its Groth16 proof in one command, as `snarkjs "
                    + "groth16 fullprove` (same arguments), without Node. On a daemon: `cuzk prove --server HOST:PORT KEY input.json "
                    + "proof.json public.json`.");
            spec.addPositional(Specs.positional(0, "<input.json>", Path.class, "the input signals"));
            spec.addPositional(Specs.positional(1, "<circuit.wasm>", Path.class, "the circuit as circom compiles it to WebAssembly"));
            spec.addPositional(Specs.positional(2, "<circuit.zkey>", Path.class, "the proving key (snarkjs .zkey, Groth16)"));
            spec.addPositional(Specs.outputFile(3, "<proof.json>", "where the proof goes"));
            spec.addPositional(Specs.outputFile(4, "<public.json>", "where the public signals go"));
            Backends.addOptions(spec);
            spec.addOption(Specs.flag("-q", "--quiet", "print nothing on success (nor the circuit's log() lines)"));
            return spec;
        }

        @Override
        public int run(Main root, ParseResult parsed) {
            Path input = Specs.positional(parsed, 0), wasm = Specs.positional(parsed, 1), zkey = Specs.positional(parsed, 2);
            boolean quiet = Specs.value(parsed, "--quiet");
            // prove's own path (output checks, key checks, warnings, the write of both files), the
            // witness calculated in memory instead of read from a .wtns
            ProveCommand.WitnessSource witness = new ProveCommand.WitnessSource() {
                @Override
                public String name() {
                    return "the witness of " + input;
                }

                @Override
                public List<Path> files() {
                    return List.of(input, wasm);
                }

                @Override
                public Witness read() {
                    byte[] wtns = calculate(wasm, input, quiet ? line -> { } : root.out::println);
                    MemorySegment seg = Arena.ofAuto().allocate(wtns.length, 8); // freed with the witness, by the GC
                    MemorySegment.copy(MemorySegment.ofArray(wtns), 0, seg, 0, wtns.length);
                    return Witness.parse(input + " (its witness)", seg);
                }
            };
            return ProveCommand.prove(root, Backends.backend(parsed, quiet ? null : root.out), zkey, witness, Specs.positional(parsed, 3),
                    Specs.positional(parsed, 4), quiet, false, null);
        }
    }
}
