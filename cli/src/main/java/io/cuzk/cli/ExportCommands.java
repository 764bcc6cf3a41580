package io.cuzk.cli;

import io.cuzk.groth16.OutputFiles;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.VerificationKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/** snarkjs's exports: {@code export-vk} and {@code export-calldata}. */
final class ExportCommands {
    private ExportCommands() {}

    /** {@code cuzk export-vk <circuit.zkey> <verification_key.json>}: {@code snarkjs zkey export verificationkey}. */
    static final class VerificationKeyCommand implements CliCommand {
        @Override
        public CommandSpec spec() {
            CommandSpec spec = Specs.command("export-vk", "Writes a proving key's verification key as `snarkjs zkey export "
                    + "verificationkey` does (same arguments and JSON, e(alpha, beta) included).");
            spec.addPositional(Specs.positional(0, "<circuit.zkey>", Path.class, "the proving key (snarkjs .zkey, Groth16)"));
            spec.addPositional(Specs.positional(1, "<verification_key.json>", Path.class, "where the verification key goes"));
            return spec;
        }

        @Override
        public int run(Main root, ParseResult parsed) {
            Path zkey = Specs.positional(parsed, 0), out = Specs.positional(parsed, 1);
            try {
                OutputFiles.requireDistinct(List.of(out), List.of(zkey));
                OutputFiles.requireWritable(List.of(out));
                String json;
                try (ProvingKey key = ProvingKey.read(zkey)) {
                    json = VerificationKey.of(key).toJson();
                }
                OutputFiles.writeTogether(List.of(out), List.of((json + "\n").getBytes(StandardCharsets.UTF_8)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            root.out.println("wrote " + out);
            return Main.OK;
        }
    }

    /** {@code cuzk export-calldata <public.json> <proof.json>}: what {@code snarkjs zkey export soliditycalldata} prints. */
    static final class CalldataCommand implements CliCommand {
        @Override
        public CommandSpec spec() {
            CommandSpec spec = Specs.command("export-calldata", "Prints a proof and its public signals as the arguments of a Solidity "
                    + "verifier's verifyProof, as `snarkjs zkey export soliditycalldata` does (same arguments and output).");
            spec.addPositional(Specs.positional(0, "<public.json>", Path.class, "the public signals"));
            spec.addPositional(Specs.positional(1, "<proof.json>", Path.class, "the proof"));
            return spec;
        }

        @Override
        public int run(Main root, ParseResult parsed) {
            Proof p;
            try {
                p = Proof.read(Specs.positional(parsed, 1), Specs.positional(parsed, 0));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            root.out.println(calldata(p));
            return Main.OK;
        }

        /** snarkjs's format: pi_b's Fp2 coordinates imaginary part first, as the EVM's pairing precompile takes them. */
        static String calldata(Proof p) {
            BigInteger[] a = coordinates(p.piA()), b = coordinates(p.piB()), c = coordinates(p.piC());
            StringBuilder inputs = new StringBuilder();
            for (BigInteger s : p.publicSignals()) {
                inputs.append(inputs.isEmpty() ? "" : ",").append(hex(s));
            }
            return "[" + hex(a[0]) + ", " + hex(a[1]) + "],[[" + hex(b[1]) + ", " + hex(b[0]) + "],[" + hex(b[3]) + ", " + hex(b[2]) + "]],["
                    + hex(c[0]) + ", " + hex(c[1]) + "],[" + inputs + "]";
        }

        /**
         * A point's affine coordinates as snarkjs prints them from its files: the point at infinity
         * as its files hold it, x = 0 and y = 1 (snarkjs prints the numbers it reads).
         */
        private static BigInteger[] coordinates(io.cuzk.Point p) {
            BigInteger[] xy = p.coordinates();
            if (p.isInfinity()) {
                xy[xy.length / 2] = BigInteger.ONE; // y, or y's real part
            }
            return xy;
        }

        private static String hex(BigInteger v) {
            String h = v.toString(16);
            return "\"0x" + "0".repeat(Math.max(0, 64 - h.length())) + h + "\"";
        }
    }
}
