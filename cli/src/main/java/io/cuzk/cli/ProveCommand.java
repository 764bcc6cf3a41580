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
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code cuzk prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>}: the arguments of
 * {@code snarkjs groth16 prove} and rapidsnark, so either can be swapped for it.
 */
@Command(name = "prove", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"A Groth16 proof from snarkjs files, written as snarkjs writes it: the arguments of",
            "`snarkjs groth16 prove` and rapidsnark. Verify it with `snarkjs groth16 verify`."})
final class ProveCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Parameters(index = "0", paramLabel = "<circuit.zkey>", description = "the proving key (snarkjs .zkey, Groth16)")
    Path zkey;

    @Parameters(index = "1", paramLabel = "<witness.wtns>", description = "the witness (snarkjs .wtns)")
    Path wtns;

    @Parameters(index = "2", paramLabel = "<proof.json>", description = "where the proof goes")
    Path proofJson;

    @Parameters(index = "3", paramLabel = "<public.json>", description = "where the public signals go")
    Path publicJson;

    @Mixin
    BackendOptions backend = new BackendOptions();

    @Option(names = {"-q", "--quiet"}, description = "print nothing on success")
    boolean quiet;

    @Override
    public Integer call() {
        return prove(root, backend.backend(quiet ? null : root.out), zkey, wtns, proofJson, publicJson, quiet);
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
