package io.cuzk.cli;

import io.cuzk.groth16.FormatException;
import io.cuzk.groth16.Groth16Verifier;
import io.cuzk.groth16.TextFiles;
import io.cuzk.groth16.VerificationKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * {@code cuzk verify <verification_key.json> <public.json> <proof.json> [<public.json> <proof.json>]...}:
 * with one proof, the arguments and the answer of {@code snarkjs groth16 verify}, with the native
 * pairings. Exit 0 and a line saying OK for a valid proof; exit 1 and a line saying invalid for a
 * well-formed proof that does not verify (an answer, not an error); exit 2 and one line naming the
 * file and field for malformed input (a point off its curve or outside its subgroup, a signal not
 * below r, counts that disagree) and for a file that cannot be read (missing, a folder, not UTF-8
 * text), so that exit 1 always means a proof that was read and rejected.
 *
 * <p>With further pairs of files, every proof is checked against the one key in one batch
 * ({@link Groth16Verifier#verifyBatchJson}: a random linear combination, about one pairing a
 * proof); when the batch fails, bisection names each invalid proof on a line of its own. Every
 * file is read and checked before any proof is verified, so a malformed one is exit 2 whatever
 * the others hold.
 */
final class VerifyCommand implements CliCommand {
    @Override
    public CommandSpec spec() {
        String snarkjs = "Verifies a Groth16 proof as `snarkjs groth16 verify` does (same arguments): prints OK! and exits 0 when it is "
                + "valid; prints that it is invalid and exits 1 when it is not; exits 2 on malformed input.";
        CommandSpec spec = Specs.command("verify", snarkjs);
        // the command list shows the first paragraph; the command's own help both
        spec.usageMessage().description(snarkjs, "Further <public.json> <proof.json> pairs verify many proofs of the key in one batch, "
                + "about one pairing a proof: OK! when all are valid, else a line naming each invalid proof and exit 1.");
        spec.addPositional(Specs.positional(0, "<verification_key.json>", Path.class, "the verification key (snarkjs JSON)"));
        spec.addPositional(Specs.positional(1, "<public.json>", Path.class, "the public signals"));
        spec.addPositional(Specs.positional(2, "<proof.json>", Path.class, "the proof"));
        spec.addPositional(Specs.positionalPaths(3, "<public.json> <proof.json>",
                "more proofs of the same key, each as its public signals and its proof: all in one batch"));
        spec.addOption(Specs.flag("-q", "--quiet", "print nothing on standard output: the exit status says it (errors still go to standard error)"));
        return spec;
    }

    @Override
    public int run(Main root, ParseResult parsed) {
        Path vkFile = Specs.positional(parsed, 0), publicFile = Specs.positional(parsed, 1), proofFile = Specs.positional(parsed, 2);
        List<Path> more = Specs.positional(parsed, 3);
        boolean quiet = Specs.value(parsed, "--quiet");
        if (more != null && more.size() % 2 != 0) {
            throw new ParameterException(parsed.commandSpec().commandLine(), "each further proof needs its public.json and its proof.json: "
                    + more.get(more.size() - 1) + " has no partner");
        }
        VerificationKey vk;
        try {
            vk = VerificationKey.read(vkFile);
        } catch (IOException e) { // a file missing, a folder, unreadable: malformed input too (exit 1 means an invalid proof)
            return malformed(root, Main.describe(e));
        } catch (FormatException e) {
            return malformed(root, e.getMessage());
        }
        if (more != null && !more.isEmpty()) {
            List<Path> files = new ArrayList<>(more.size() + 2);
            files.add(publicFile);
            files.add(proofFile);
            files.addAll(more);
            return batch(root, vk, vkFile, files, quiet);
        }
        boolean valid;
        try {
            // read as Proof.read reads it, B's subgroup check made by the pairing (Groth16Verifier.verifyFiles)
            valid = Groth16Verifier.verifyFiles(vk, proofFile, publicFile);
        } catch (IOException e) {
            return malformed(root, Main.describe(e));
        } catch (FormatException e) {
            return malformed(root, e.getMessage());
        } catch (IllegalArgumentException e) { // a proof that does not fit the key (curve, signal count), its files named
            return malformed(root, "the proof and " + vkFile + " do not fit: " + e.getMessage());
        }
        if (!quiet) {
            root.out.println(valid ? "OK!" : "Invalid proof");
        }
        return valid ? Main.OK : Main.BAD_INPUT;
    }

    /** Many proofs of one key (files: public.json, proof.json, public.json, ...) in one batch. */
    private static int batch(Main root, VerificationKey vk, Path vkFile, List<Path> files, boolean quiet) {
        List<Groth16Verifier.ProofJson> proofs = new ArrayList<>(files.size() / 2);
        Groth16Verifier.BatchResult result;
        try {
            for (int i = 0; i < files.size(); i += 2) {
                Path pub = files.get(i), proof = files.get(i + 1);
                proofs.add(new Groth16Verifier.ProofJson(proof.toString(), TextFiles.read(proof), pub.toString(), TextFiles.read(pub)));
            }
            result = Groth16Verifier.verifyBatchJson(vk, proofs);
        } catch (IOException e) {
            return malformed(root, Main.describe(e));
        } catch (FormatException e) {
            return malformed(root, e.getMessage());
        } catch (IllegalArgumentException e) { // a proof that does not fit the key (curve, signal count), its file named
            return malformed(root, "the proofs and " + vkFile + " do not fit: " + e.getMessage());
        }
        if (!quiet) {
            if (result.valid()) {
                root.out.println("OK! (".concat(Integer.toString(proofs.size())).concat(" proofs)"));
            } else {
                for (int i : result.invalid()) { // numbered as given, from 1: the same files may come twice
                    Groth16Verifier.ProofJson p = proofs.get(i);
                    root.out.println("Invalid proof " + (i + 1) + ": " + p.proofName() + " (public signals " + p.publicName() + ")");
                }
                root.out.println(result.invalid().size() + " of " + proofs.size() + " proofs are invalid");
            }
        }
        return result.valid() ? Main.OK : Main.BAD_INPUT;
    }

    private static int malformed(Main root, String message) {
        root.err.println("cuzk verify: " + Main.printable(message));
        return Main.USAGE;
    }
}
