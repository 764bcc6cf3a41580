package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.BackendChoice;
import io.cuzk.groth16.Blinding;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * {@code cuzk prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>}: the arguments of
 * {@code snarkjs groth16 prove} and rapidsnark, so either can be swapped for it.
 */
final class ProveCommand {
    static final Set<String> OPTIONS = Set.of("threads", "backend", "device", "quiet");

    private ProveCommand() {}

    static int run(Options opts, PrintStream out) {
        Path zkey = Path.of(opts.positional().get(0));
        Path wtns = Path.of(opts.positional().get(1));
        Path proofJson = Path.of(opts.positional().get(2));
        Path publicJson = Path.of(opts.positional().get(3));
        boolean quiet = Boolean.parseBoolean(opts.get("quiet", "false"));
        Backend backend = backend(opts, quiet ? null : out);
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
                out.println(zkey + ": " + key.curve().cliName() + ", domain 2^" + Integer.numberOfTrailingZeros(key.domainSize()) + ", "
                        + key.nPublic() + " public signals; read " + Math.round((t1 - t0) / 1e6) + " ms, proved "
                        + Math.round((t2 - t1) / 1e6) + " ms on " + backend.name());
                out.println("wrote " + proofJson + " and " + publicJson);
            }
            return Main.OK;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The backend of --backend (cpu, cuda or auto) and --threads; auto says on log why it chose what it did. */
    static Backend backend(Options opts, PrintStream log) {
        int threads = opts.getInt("threads", 0, 0, 4096);
        String name = opts.get("backend", "cpu").toLowerCase(Locale.ROOT);
        int device = opts.getInt("device", 0, 0, 64);
        return switch (name) {
            case "cpu" -> Backend.cpu(threads);
            case "cuda" -> Backend.cuda(device);
            case "auto" -> {
                BackendChoice choice = BackendChoice.auto();
                if (log != null) {
                    log.println("cuzk: backend auto: " + (choice.fallbackReason() == null ? choice.backend().name()
                            : "cpu, because " + choice.fallbackReason()));
                }
                yield choice.fallbackReason() == null ? choice.backend() : Backend.cpu(threads);
            }
            default -> throw new UsageException("unknown backend '" + name + "': expected cpu, cuda or auto");
        };
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

    private static <T> T read(Reader<T> r, Path file) throws IOException {
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
