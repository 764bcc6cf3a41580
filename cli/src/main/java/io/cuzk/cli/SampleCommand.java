package io.cuzk.cli;

import io.cuzk.Backend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code cuzk sample}, the default job: proves the bundled sample (Poseidon on BN254, in
 * samples/poseidon-bn254 of the installation) into out/proof.json and out/public.json, and says how
 * to verify the proof with snarkjs.
 */
@Command(name = "sample", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"The default job: proves the bundled sample (circomlib's Poseidon on BN254) into DIR/proof.json and",
            "DIR/public.json on the CPU, and prints the snarkjs command that verifies them."})
final class SampleCommand implements Callable<Integer> {
    static final String SAMPLE = "samples/poseidon-bn254";

    @ParentCommand
    Main root;

    @Spec
    CommandSpec spec; // null when it runs as the command line's default job

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "out", description = "where the proof goes (default: ${DEFAULT-VALUE})")
    Path out = Path.of("out");

    @Option(names = "--threads", paramLabel = "N", defaultValue = "0", description = "CPU threads, 0 = all (default: ${DEFAULT-VALUE})")
    int threads;

    @Override
    public Integer call() {
        return run(root);
    }

    int run(Main root) {
        Path home = Path.of(System.getProperty("cuzk.home", "."));
        Path sample = home.resolve(SAMPLE);
        if (!Files.isRegularFile(sample.resolve("circuit.zkey"))) {
            throw new InvalidInputException("the bundled sample is not at " + sample.toAbsolutePath()
                    + " (bin/cuzk sets -Dcuzk.home to the installation)");
        }
        if (spec != null) {
            Ranges.check(spec, "--threads", threads, 0, 4096);
        }
        Path proof = out.resolve("proof.json");
        Path pub = out.resolve("public.json");
        root.out.println("cuzk: proving the bundled sample, circomlib's Poseidon on BN254 (" + sample + ")");
        int status = ProveCommand.prove(root, Backend.cpu(threads), sample.resolve("circuit.zkey"), sample.resolve("witness.wtns"), proof,
                pub, false);
        root.out.println("verify with snarkjs:  npx --yes snarkjs@0.7.6 groth16 verify " + sample.resolve("verification_key.json") + " "
                + pub + " " + proof);
        return status;
    }
}
