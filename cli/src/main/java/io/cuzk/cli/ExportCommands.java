package io.cuzk.cli;

import io.cuzk.groth16.OutputFiles;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.TextFiles;
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
            spec.addPositional(Specs.outputFile(1, "<verification_key.json>", "where the verification key goes"));
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
                OutputFiles.writeTogether(List.of(out), List.of(json.getBytes(StandardCharsets.UTF_8)));
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
            Path publicFile = Specs.positional(parsed, 0), proofFile = Specs.positional(parsed, 1);
            try {
                Proof p = Proof.read(proofFile, publicFile); // every number checked, every point on its curve
                root.out.println(calldata(JSON.readTree(TextFiles.read(proofFile)), p.publicSignals()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Main.OK;
        }

        /**
         * The proof read again for its numbers as written, after Proof.read checked them all: without
         * Jackson's length limits, which that reader does not have (any count of leading zeros).
         */
        private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper(
                com.fasterxml.jackson.core.JsonFactory.builder().streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                        .maxStringLength(Integer.MAX_VALUE).maxNumberLength(Integer.MAX_VALUE).maxNestingDepth(Integer.MAX_VALUE).build())
                        .build());

        /**
         * snarkjs's format: the numbers of proof.json as it holds them (snarkjs prints what it
         * reads, so a point at infinity is printed as its file writes it, [0, 1, 0] or [0, 0, 1]),
         * pi_b's Fp2 coordinates imaginary part first, as the EVM's pairing precompile takes them.
         */
        static String calldata(com.fasterxml.jackson.databind.JsonNode proof, List<BigInteger> publicSignals) {
            com.fasterxml.jackson.databind.JsonNode a = proof.get("pi_a"), b = proof.get("pi_b"), c = proof.get("pi_c");
            StringBuilder inputs = new StringBuilder();
            for (BigInteger s : publicSignals) {
                inputs.append(inputs.isEmpty() ? "" : ",").append(hex(s));
            }
            return "[" + hex(a.get(0)) + ", " + hex(a.get(1)) + "],[[" + hex(b.get(0).get(1)) + ", " + hex(b.get(0).get(0)) + "],["
                    + hex(b.get(1).get(1)) + ", " + hex(b.get(1).get(0)) + "]],[" + hex(c.get(0)) + ", " + hex(c.get(1)) + "],[" + inputs
                    + "]";
        }

        /**
         * A number as the proof's reader took it: decimal digits or 0x and hexadecimal ones (a
         * string), or a JSON number, whose value is JSON.parse's double (an integer, as the reader
         * checked: 1e0 is 1).
         */
        private static String hex(com.fasterxml.jackson.databind.JsonNode n) {
            if (n.isNumber()) {
                return hex(new java.math.BigDecimal(n.asDouble()).toBigIntegerExact());
            }
            String s = n.asText();
            return hex(s.startsWith("0x") ? new BigInteger(s.substring(2), 16) : new BigInteger(s));
        }

        private static String hex(BigInteger v) {
            String h = v.toString(16);
            return "\"0x" + "0".repeat(Math.max(0, 64 - h.length())) + h + "\"";
        }
    }
}
