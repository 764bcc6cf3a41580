package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.groth16.Blinding;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code cuzk prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>}: the arguments of
 * {@code snarkjs groth16 prove} and rapidsnark, so either can be swapped for it.
 */
final class ProveCommand implements CliCommand {
    @Override
    public CommandSpec spec() {
        CommandSpec spec = Specs.command("prove", "A Groth16 proof from snarkjs files, written as snarkjs writes it: the arguments of "
                + "`snarkjs groth16 prove` and rapidsnark. Verify it with `snarkjs groth16 verify`.");
        spec.addPositional(Specs.positional(0, "<circuit.zkey>", Path.class, "the proving key (snarkjs .zkey, Groth16)"));
        spec.addPositional(Specs.positional(1, "<witness.wtns>", Path.class, "the witness (snarkjs .wtns)"));
        spec.addPositional(Specs.positional(2, "<proof.json>", Path.class, "where the proof goes"));
        spec.addPositional(Specs.positional(3, "<public.json>", Path.class, "where the public signals go"));
        Backends.addOptions(spec);
        spec.addOption(Specs.flag("-q", "--quiet", "print nothing on success"));
        return spec;
    }

    @Override
    public int run(Main root, ParseResult parsed) {
        boolean quiet = Specs.value(parsed, "--quiet");
        return prove(root, Backends.backend(parsed, quiet ? null : root.out), Specs.positional(parsed, 0), Specs.positional(parsed, 1),
                Specs.positional(parsed, 2), Specs.positional(parsed, 3), quiet);
    }

    static int prove(Main root, Backend backend, Path zkey, Path wtns, Path proofJson, Path publicJson, boolean quiet) {
        // First uses that need at most the key's headers run on another thread while this one
        // reads and checks the key and the witness: the linking of the proof's native calls and the
        // tables H keeps for the key's domain size (Groth16Prover.prepare). The blinding's generator
        // (SystemRandom) costs about a millisecond, so it needs no thread of its own (the JDK's
        // default SecureRandom took about 30 ms of CPU, and had one).
        Thread.ofPlatform().daemon().name("cuzk-prepare").start(() -> prepare(zkey, backend));
        long t0 = System.nanoTime();
        try (ProvingKey key = read(() -> ProvingKey.read(zkey), zkey); Witness witness = read(() -> Witness.read(wtns), wtns)) {
            long t1 = System.nanoTime();
            Proof proof = new Groth16Prover(backend, Blinding.secure()).prove(key, witness);
            long t2 = System.nanoTime();
            createParent(proofJson);
            createParent(publicJson);
            proof.write(proofJson, publicJson);
            if (!quiet) {
                // concatenated, not printf: the formatter's first use costs a command about 10 ms
                root.out.println(zkey + ": " + key.curve().cliName() + ", domain 2^" + Integer.numberOfTrailingZeros(key.domainSize())
                        + ", " + key.nPublic() + " public signals; read " + Math.round((t1 - t0) / 1e6) + " ms, proved "
                        + Math.round((t2 - t1) / 1e6) + " ms on " + backend.name());
                root.out.println("wrote " + proofJson + " and " + publicJson);
            }
            return Main.OK;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void prepare(Path zkey, Backend backend) {
        try {
            Groth16Prover.prepare(ProvingKey.shape(zkey), backend);
        } catch (IOException | RuntimeException e) {
            // only an optimisation: the main thread reads the key and reports what is wrong with it
        }
    }

    interface Reader<T> {
        T read() throws IOException;
    }

    static <T> T read(Reader<T> r, Path file) throws IOException {
        try {
            return r.read();
        } catch (NoSuchFileException e) {
            throw new InvalidInputException(file + ": no such file");
        }
    }

    private static void createParent(Path p) throws IOException {
        Path parent = p.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }
}
