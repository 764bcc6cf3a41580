package io.cuzk.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code cuzk sample}, the default job: proves the bundled sample (Poseidon on BN254, in
 * samples/poseidon-bn254 of the installation) into out/proof.json and out/public.json, and says how
 * to verify the proof with snarkjs.
 */
final class SampleCommand {
    static final Set<String> OPTIONS = Set.of("out", "threads");
    static final String SAMPLE = "samples/poseidon-bn254";

    private SampleCommand() {}

    static int run(Options opts, PrintStream out) {
        Path home = Path.of(System.getProperty("cuzk.home", "."));
        Path sample = home.resolve(SAMPLE);
        if (!Files.isRegularFile(sample.resolve("circuit.zkey"))) {
            throw new InvalidInputException("the bundled sample is not at " + sample.toAbsolutePath()
                    + " (bin/cuzk sets -Dcuzk.home to the installation)");
        }
        Path dir = Path.of(opts.get("out", "out"));
        Path proof = dir.resolve("proof.json");
        Path pub = dir.resolve("public.json");
        String threads = opts.get("threads", "0");
        List<String> args = List.of(sample.resolve("circuit.zkey").toString(), sample.resolve("witness.wtns").toString(),
                proof.toString(), pub.toString(), "--threads", threads);
        out.println("cuzk: proving the bundled sample, circomlib's Poseidon on BN254 (" + sample + ")");
        int status = ProveCommand.run(Options.parse(args.toArray(String[]::new), ProveCommand.OPTIONS, 4), out);
        out.println("verify with snarkjs:  npx --yes snarkjs@0.7.6 groth16 verify " + sample.resolve("verification_key.json") + " "
                + pub + " " + proof);
        return status;
    }
}
