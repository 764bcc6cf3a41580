package io.cuzk.cli;

import io.cuzk.Backend;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code cuzk sample}, the default job: proves the bundled sample (Poseidon on BN254, in
 * samples/poseidon-bn254 of the installation) into out/proof.json and out/public.json, and says how
 * to verify the proof with snarkjs.
 */
final class SampleCommand implements CliCommand {
    static final String SAMPLE = "samples/poseidon-bn254";

    @Override
    public CommandSpec spec() {
        CommandSpec spec = Specs.command("sample", "The default job: proves the bundled sample (circomlib's Poseidon on BN254) into "
                + "DIR/proof.json and DIR/public.json on the CPU, and prints the snarkjs command that verifies them.");
        spec.addOption(Specs.option("--out", "DIR", Path.class, "out", "where the proof goes"));
        spec.addOption(Specs.option("--threads", "N", int.class, "0", "CPU threads, 0 = all"));
        return spec;
    }

    @Override
    public int run(Main root, ParseResult parsed) {
        return run(root, Specs.value(parsed, "--out"), Specs.intValue(parsed, "--threads", 0, 4096));
    }

    /** Proves the sample into dir; threads 0 = all. */
    static int run(Main root, Path out, int threads) {
        Path home = Path.of(System.getProperty("cuzk.home", "."));
        Path sample = home.resolve(SAMPLE);
        if (!Files.isRegularFile(sample.resolve("circuit.zkey"))) {
            throw new InvalidInputException("the bundled sample is not at " + sample.toAbsolutePath()
                    + " (bin/cuzk sets -Dcuzk.home to the installation)");
        }
        Path proof = out.resolve("proof.json");
        Path pub = out.resolve("public.json");
        root.out.println("cuzk: proving the bundled sample, circomlib's Poseidon on BN254 (" + sample + ")");
        int status = ProveCommand.prove(root, Backend.cpu(threads), sample.resolve("circuit.zkey"), sample.resolve("witness.wtns"), proof,
                pub, false, false, null);
        root.out.println("verify with snarkjs:  npx --yes snarkjs@0.7.6 groth16 verify " + sample.resolve("verification_key.json") + " "
                + pub + " " + proof);
        return status;
    }
}
