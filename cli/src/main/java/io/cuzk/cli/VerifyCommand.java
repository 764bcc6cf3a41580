package io.cuzk.cli;

import io.cuzk.groth16.FormatException;
import io.cuzk.groth16.Groth16Verifier;
import io.cuzk.groth16.VerificationKey;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code cuzk verify <verification_key.json> <public.json> <proof.json>}: the arguments and the
 * answer of {@code snarkjs groth16 verify}, with the native pairings. Exit 0 and a line saying OK
 * for a valid proof; exit 1 and a line saying invalid for a well-formed proof that does not verify
 * (an answer, not an error); exit 2 and one line naming the file and field for malformed input
 * (a point off its curve or outside its subgroup, a signal not below r, counts that disagree) and
 * for a file that cannot be read (missing, a folder, not UTF-8 text), so that exit 1 always means
 * a proof that was read and rejected.
 */
final class VerifyCommand implements CliCommand {
    @Override
    public CommandSpec spec() {
        CommandSpec spec = Specs.command("verify", "Verifies a Groth16 proof as `snarkjs groth16 verify` does (same arguments): prints OK! "
                + "and exits 0 when it is valid; prints that it is invalid and exits 1 when it is not; exits 2 on malformed input.");
        spec.addPositional(Specs.positional(0, "<verification_key.json>", Path.class, "the verification key (snarkjs JSON)"));
        spec.addPositional(Specs.positional(1, "<public.json>", Path.class, "the public signals"));
        spec.addPositional(Specs.positional(2, "<proof.json>", Path.class, "the proof"));
        spec.addOption(Specs.flag("-q", "--quiet", "print nothing: the exit status says it"));
        return spec;
    }

    @Override
    public int run(Main root, ParseResult parsed) {
        Path vkFile = Specs.positional(parsed, 0), publicFile = Specs.positional(parsed, 1), proofFile = Specs.positional(parsed, 2);
        boolean quiet = Specs.value(parsed, "--quiet");
        VerificationKey vk;
        try {
            vk = VerificationKey.read(vkFile);
        } catch (IOException e) { // a file missing, a folder, unreadable: malformed input too (exit 1 means an invalid proof)
            return malformed(root, Main.describe(e));
        } catch (FormatException e) {
            return malformed(root, e.getMessage());
        }
        boolean valid;
        try {
            // read as Proof.read reads it, B's subgroup check made by the pairing (Groth16Verifier.verifyFiles)
            valid = Groth16Verifier.verifyFiles(vk, proofFile, publicFile);
        } catch (IOException e) {
            return malformed(root, Main.describe(e));
        } catch (FormatException e) {
            return malformed(root, e.getMessage());
        } catch (IllegalArgumentException e) { // a proof that does not fit the key (curve, signal count)
            return malformed(root, publicFile + ", " + proofFile + " and " + vkFile + " do not fit: " + e.getMessage());
        }
        if (!quiet) {
            root.out.println(valid ? "OK!" : "Invalid proof");
        }
        return valid ? Main.OK : Main.BAD_INPUT;
    }

    private static int malformed(Main root, String message) {
        root.err.println("cuzk verify: " + message);
        return Main.USAGE;
    }
}
