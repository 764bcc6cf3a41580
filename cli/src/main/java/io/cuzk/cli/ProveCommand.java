package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.groth16.Blinding;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.OutputFiles;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
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
                + "`snarkjs groth16 prove` and rapidsnark. Verify it with `cuzk verify` (or `snarkjs groth16 verify`).");
        spec.addPositional(Specs.positional(0, "<circuit.zkey>", Path.class, "the proving key (snarkjs .zkey, Groth16)"));
        spec.addPositional(Specs.positional(1, "<witness.wtns>", Path.class, "the witness (snarkjs .wtns); with --server also "
                + "circom's input.json, whose witness the daemon calculates with the key's circuit (NAME.wasm beside NAME.zkey)"));
        spec.addPositional(Specs.outputFile(2, "<proof.json>", "where the proof goes"));
        spec.addPositional(Specs.outputFile(3, "<public.json>", "where the public signals go"));
        Backends.addOptions(spec);
        spec.addOption(Specs.flag("-q", "--quiet", "print nothing on success"));
        spec.addOption(Specs.flag("--map-key", "map the key file instead of reading it into memory: a few percent faster, but "
                + "the process dies (SIGBUS) if the file is truncated or rewritten while it runs"));
        addClientOptions(spec, "prove on a daemon (bin/cuzk serve): <circuit.zkey> is then the name of one of its keys");
        spec.addOption(Specs.option("--priority", "low|normal|high|critical", String.class, "normal", "with --server: the job's priority"));
        spec.addOption(Specs.option("--timeout-s", "S", int.class, "600", "with --server: how long to wait for the proof"));
        spec.addOption(Specs.option("--progress", "auto|always|never", String.class, "auto", "a progress line on stderr (the phase or "
                + "the job's state, seconds so far): auto shows it on a terminal once the proof has run a second"));
        return spec;
    }

    /** The options of a daemon's client (here, without loading gRPC: the local proof's start pays nothing for them). */
    static void addClientOptions(CommandSpec spec, String serverHelp) {
        String several = "; several as HOST:PORT,HOST:PORT or dns:///NAME:PORT (every address of the name), balanced by their"
                + " reported load";
        spec.addOption(serverHelp == null ? Specs.required("--server", "HOST:PORT", String.class, "the daemon (bin/cuzk serve)" + several)
                : Specs.option("--server", "HOST:PORT", String.class, null, serverHelp + several));
        spec.addOption(Specs.option("--attempts", "N", int.class, "6", "a job whose daemon goes away (killed, shutting down) or "
                + "that no daemon takes is placed again, under the same client job id, up to N calls in all"));
        spec.addOption(Specs.option("--token-file", "FILE", Path.class, null, "the daemon's bearer token (the file's first line)"));
        spec.addOption(Specs.option("--tls-ca", "FILE", Path.class, null, "TLS to the daemon, trusting the certificates in FILE (PEM)"));
    }

    @Override
    public int run(Main root, ParseResult parsed) {
        boolean quiet = Specs.value(parsed, "--quiet");
        boolean map = Specs.value(parsed, "--map-key");
        java.time.Duration progress = ProgressLine.firstAfter(root, Specs.value(parsed, "--progress"), false);
        if (Specs.value(parsed, "--server") != null) {
            Path key = Specs.positional(parsed, 0);
            return Remote.prove(root, parsed, key.toString(), Specs.positional(parsed, 1), Specs.positional(parsed, 2),
                    Specs.positional(parsed, 3), quiet, progress);
        }
        return prove(root, Backends.backend(parsed, quiet ? null : root.out), Specs.positional(parsed, 0),
                WitnessSource.file(Specs.positional(parsed, 1)), Specs.positional(parsed, 2), Specs.positional(parsed, 3), quiet, map, progress);
    }

    /** Where a proof's witness comes from: a .wtns file, or (fullprove) calculated from input.json. */
    interface WitnessSource {
        /** What the progress line says while it is read. */
        String name();

        /** The files it reads, which the outputs must not overwrite. */
        List<Path> files();

        Witness read() throws IOException;

        static WitnessSource file(Path wtns) {
            return new WitnessSource() {
                @Override
                public String name() {
                    return wtns.getFileName().toString();
                }

                @Override
                public List<Path> files() {
                    return List.of(wtns);
                }

                @Override
                public Witness read() throws IOException {
                    return Witness.read(wtns);
                }
            };
        }
    }

    static int prove(Main root, Backend backend, Path zkey, Path wtns, Path proofJson, Path publicJson, boolean quiet, boolean mapKey,
            java.time.Duration progress) {
        return prove(root, backend, zkey, WitnessSource.file(wtns), proofJson, publicJson, quiet, mapKey, progress);
    }

    static int prove(Main root, Backend backend, Path zkey, WitnessSource wtns, Path proofJson, Path publicJson, boolean quiet,
            boolean mapKey, java.time.Duration progress) {
        // First uses that need at most the key's headers run on another thread while this one
        // reads and checks the key and the witness: the linking of the proof's native calls and the
        // tables H keeps for the key's domain size (Groth16Prover.prepare). The blinding's generator
        // (SystemRandom) costs about a millisecond, so it needs no thread of its own (the JDK's
        // default SecureRandom took about 30 ms of CPU, and had one).
        Thread.ofPlatform().daemon().name("cuzk-prepare").start(() -> prepare(zkey, backend));
        try {
            // before any work on this thread (the linking above only prepares): outputs that would
            // overwrite an input or each other, or cannot be written
            List<Path> inputs = new java.util.ArrayList<>(wtns.files());
            inputs.add(zkey);
            OutputFiles.requireDistinct(List.of(proofJson, publicJson), inputs);
            OutputFiles.requireWritable(List.of(proofJson, publicJson));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long t0 = System.nanoTime();
        java.util.concurrent.atomic.AtomicReference<String> phase = new java.util.concurrent.atomic.AtomicReference<>(
                "reading " + zkey.getFileName() + " and " + wtns.name());
        try (ProgressLine line = ProgressLine.start(root.err, progress, () -> "cuzk prove: " + phase.get() + ", "
                + Math.round((System.nanoTime() - t0) / 1e8) / 10.0 + " s")) {
            return prove(root, backend, zkey, wtns, proofJson, publicJson, quiet, mapKey, t0, phase, line);
        }
    }

    private static int prove(Main root, Backend backend, Path zkey, WitnessSource wtns, Path proofJson, Path publicJson, boolean quiet,
            boolean mapKey, long t0, java.util.concurrent.atomic.AtomicReference<String> phase, ProgressLine line) {
        // The key is read into memory the process owns (ProvingKey.read) unless --map-key: a key file
        // rewritten or truncated while the proof runs then cannot crash the command, and the copy
        // costs little against the proof (docs/reliability.md has the figures).
        try (ProvingKey key = mapKey ? ProvingKey.map(zkey) : ProvingKey.read(zkey); Witness witness = wtns.read()) {
            if (!quiet) {
                key.warnings().forEach(w -> root.err.println("cuzk prove: warning: " + w));
                witness.warnings().forEach(w -> root.err.println("cuzk prove: warning: " + w));
            }
            long t1 = System.nanoTime();
            String shape = key.curve().cliName() + " 2^" + Integer.numberOfTrailingZeros(key.domainSize()) + " on " + backend.name() + ": ";
            Proof proof = new Groth16Prover(backend, Blinding.secure()).prove(key, witness, p -> phase.set(shape + p));
            long t2 = System.nanoTime();
            phase.set("writing " + proofJson.getFileName() + " and " + publicJson.getFileName());
            proof.write(proofJson, publicJson);
            line.close();
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
}
