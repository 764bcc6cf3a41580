package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cuzk.Curve;
import io.cuzk.groth16.FormatException;
import io.cuzk.groth16.Groth16Verifier;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.VerificationKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Groth16 verification against snarkjs: for circuits with one and with several public signals on
 * both curves, snarkjs proves, exports the verification key and the Solidity calldata, and judges
 * the proof and tampered copies (each field of the proof, each public signal); cuzk's verifier,
 * its batch verification and the verify / export-vk / export-calldata commands must agree.
 */
class Groth16VerifierTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static Stream<Arguments> circuits() {
        List<Arguments> out = new ArrayList<>();
        for (Curve c : Curve.values()) {
            out.add(Arguments.of(c, "chain_main")); // one public signal
            out.add(Arguments.of(c, "multi_main")); // several
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("circuits")
    void agreesWithSnarkjs(Curve curve, String circuit) throws Exception {
        Path dir = Circuits.dir(curve, circuit);
        JsonNode ref = JSON.readTree(Node.run("snarkjs_verify_cases.mjs", dir.resolve("circuit.zkey").toString(),
                dir.resolve("witness.wtns").toString()));
        // the verification key: cuzk's export equals snarkjs's (parsed JSON), and parses back
        Path vkFile = tmp.resolve("verification_key.json");
        Cli.Result export = Cli.run("export-vk", dir.resolve("circuit.zkey").toString(), vkFile.toString());
        assertEquals(0, export.status(), export.err());
        assertEquals(ref.get("vk"), JSON.readTree(vkFile.toFile()), "export-vk equals snarkjs zkey export verificationkey");
        Path theirsVk = tmp.resolve("snarkjs-verification_key.json");
        Node.snarkjs("zkey", "export", "verificationkey", dir.resolve("circuit.zkey").toString(), theirsVk.toString());
        assertEquals(Files.readString(theirsVk), Files.readString(vkFile), "byte for byte what snarkjs's command writes");
        VerificationKey vk = VerificationKey.read(vkFile);
        try (ProvingKey key = ProvingKey.read(dir.resolve("circuit.zkey"))) {
            assertEquals(vk, VerificationKey.of(key));
        }
        List<Proof> proofs = new ArrayList<>();
        List<Boolean> valid = new ArrayList<>();
        List<String> batchArgs = new ArrayList<>(List.of("verify", vkFile.toString())); // every case, in one command
        List<String> invalidLines = new ArrayList<>();
        for (JsonNode c : ref.get("cases")) {
            String name = c.get("name").asText();
            Path caseDir = Files.createDirectories(tmp.resolve("case-" + proofs.size()));
            Files.writeString(caseDir.resolve("proof.json"), c.get("proof").toString());
            Files.writeString(caseDir.resolve("public.json"), c.get("public").toString());
            batchArgs.add(caseDir.resolve("public.json").toString());
            batchArgs.add(caseDir.resolve("proof.json").toString());
            if (!c.get("valid").asBoolean()) {
                invalidLines.add("Invalid proof " + (proofs.size() + 1) + ": " + caseDir.resolve("proof.json") + " (public signals " + caseDir.resolve("public.json") + ")");
            }
            Path proofFile = tmp.resolve("proof.json"), publicFile = tmp.resolve("public.json");
            Files.writeString(proofFile, c.get("proof").toString());
            Files.writeString(publicFile, c.get("public").toString());
            boolean expected = c.get("valid").asBoolean();
            assertEquals(name.equals("valid"), expected, "snarkjs's own answer for " + name);
            Proof p = Proof.read(proofFile, publicFile);
            // a key's first verification runs four pairs' loops, the later ones reuse the key's part
            // (the loop of (-alpha, beta), the lines of gamma and delta): the same answer either way
            assertEquals(expected, Groth16Verifier.verify(vk, p), name);
            assertEquals(expected, Groth16Verifier.verify(vk, p), name + ", again");
            assertEquals(expected, Groth16Verifier.verify(vk, p), name + ", a third time");
            // read from the text, B's subgroup check made by the pairing: the same answer
            assertEquals(expected, Groth16Verifier.verifyJson(vk, "proof.json", c.get("proof").toString(), "public.json",
                    c.get("public").toString()), name + ", from the text");
            proofs.add(p);
            valid.add(expected);
            // the command: OK and 0, or invalid and 1
            Cli.Result r = Cli.run("verify", vkFile.toString(), publicFile.toString(), proofFile.toString());
            assertEquals(expected ? 0 : 1, r.status(), name + ": " + r.out() + r.err());
            assertEquals(expected ? "OK!" : "Invalid proof", r.out().strip(), name);
            // bin/cuzk's native verifier answers these files itself (see NativeVerifier), alike
            NativeVerifier.Result n = NativeVerifier.run(vkFile, publicFile, proofFile);
            assertEquals(expected ? 0 : 1, n.status(), name + ", native: " + n.out() + n.err());
            assertEquals(expected ? "OK!" : "Invalid proof", n.out().strip(), name + ", native");
            if (name.equals("valid")) {
                Cli.Result cd = Cli.run("export-calldata", publicFile.toString(), proofFile.toString());
                assertEquals(0, cd.status(), cd.err());
                assertEquals(ref.get("calldata").asText(), cd.out().strip(), "export-calldata prints what snarkjs prints");
            }
        }
        // the command with every case as one batch: each proof snarkjs rejects named, in order, exit 1
        Cli.Result all = Cli.run(batchArgs.toArray(String[]::new));
        assertEquals(1, all.status(), all.out() + all.err());
        List<String> expectedLines = new ArrayList<>(invalidLines);
        expectedLines.add(invalidLines.size() + " of " + proofs.size() + " proofs are invalid");
        assertEquals(expectedLines, all.out().strip().lines().toList(), "the batch names the proofs snarkjs rejects");
        assertTrue(invalidLines.size() >= 4 && invalidLines.size() < proofs.size(), "valid and tampered cases: " + invalidLines);
        // ... and only the valid one, given three times: OK
        String validPub = tmp.resolve("case-0").resolve("public.json").toString(), validProof = tmp.resolve("case-0").resolve("proof.json").toString();
        Cli.Result allOk = Cli.run("verify", vkFile.toString(), validPub, validProof, validPub, validProof, validPub, validProof);
        assertEquals(0, allOk.status(), allOk.out() + allOk.err());
        assertEquals("OK! (3 proofs)", allOk.out().strip());
        // batches: all valid, then with the invalid ones at known places, named by bisection
        Proof good = proofs.get(0);
        List<Proof> batch = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            batch.add(good);
        }
        Groth16Verifier.BatchResult allValid = Groth16Verifier.verifyBatch(vk, batch);
        assertTrue(allValid.valid() && allValid.invalid().isEmpty() && allValid.pairingProducts() == 1, allValid.toString());
        List<Integer> bad = new ArrayList<>();
        List<Proof> mixed = new ArrayList<>();
        for (int i = 0; i < proofs.size(); i++) {
            mixed.add(good);
            mixed.add(proofs.get(i));
            if (!valid.get(i)) {
                bad.add(2 * i + 1);
            }
        }
        Groth16Verifier.BatchResult r = Groth16Verifier.verifyBatch(vk, mixed, new SecureRandom());
        assertFalse(r.valid());
        assertEquals(bad, r.invalid(), "bisection names exactly the invalid proofs");
        // the same batch from the proofs' text (B checked by the pairings): the same proofs named
        List<Groth16Verifier.ProofJson> texts = new ArrayList<>();
        for (Proof m : mixed) {
            texts.add(new Groth16Verifier.ProofJson("proof.json", m.proofJson(), "public.json", m.publicJson()));
        }
        Groth16Verifier.BatchResult fromText = Groth16Verifier.verifyBatchJson(vk, texts, new SecureRandom());
        assertEquals(bad, fromText.invalid(), "the batch read from the text names the same proofs");
        // a B on the twist but outside G2 is malformed wherever it sits: one proof or a batch (a key
        // prepared or seen for the first time), the file and pi_b named
        java.math.BigInteger[] q = TwistPoints.outsideG2(curve);
        String outsideB = withB(good.proofJson(), q);
        // a Proof made with its constructor (not read) gets the same check from the pairing
        Proof handMade = new Proof(curve, good.piA(), io.cuzk.Point.ofCoordinates(curve, io.cuzk.Group.G2, q[0], q[1], q[2], q[3]),
                good.piC(), good.publicSignals());
        FormatException made = assertThrows(FormatException.class, () -> Groth16Verifier.verify(vk, handMade));
        assertTrue(made.getMessage().startsWith("the proof: pi_b: ") && made.getMessage().contains("subgroup"), made.getMessage());
        List<Proof> madeBatch = new ArrayList<>(List.of(good, good, good, good, good, good, good, good, good));
        madeBatch.set(2, handMade);
        FormatException inBatch = assertThrows(FormatException.class, () -> Groth16Verifier.verifyBatch(vk, madeBatch));
        assertTrue(inBatch.getMessage().startsWith("proof 2: pi_b: "), inBatch.getMessage());
        // points off their curves, in proofs and keys made with the constructors (which check
        // nothing): refused, the field named, never a meaningless answer
        io.cuzk.Point offA = offCurve(good.piA()), offC = offCurve(good.piC()), offB = offCurve(good.piB());
        for (int field = 0; field < 3; field++) {
            Proof off = new Proof(curve, field == 0 ? offA : good.piA(), field == 1 ? offB : good.piB(), field == 2 ? offC : good.piC(),
                    good.publicSignals());
            String named = new String[] {"pi_a", "pi_b", "pi_c"}[field];
            FormatException one = assertThrows(FormatException.class, () -> Groth16Verifier.verify(vk, off));
            assertTrue(one.getMessage().startsWith("the proof: " + named + ": ") && one.getMessage().contains("not on the curve"),
                    one.getMessage());
            List<Proof> offBatch = new ArrayList<>(List.of(good, good, good, good, good, good, good, good, good, good));
            offBatch.set(6, off);
            offBatch.set(8, new Proof(curve, offA, good.piB(), good.piC(), good.publicSignals()));
            FormatException inOffBatch = assertThrows(FormatException.class, () -> Groth16Verifier.verifyBatch(vk, offBatch));
            assertTrue(inOffBatch.getMessage().startsWith("proof 6: " + named + ": "), inOffBatch.getMessage());
        }
        for (int round = 0; round < 2; round++) { // the same answer every time: such a key is never prepared
            java.util.List<io.cuzk.Point> offIc = new ArrayList<>(vk.ic());
            offIc.set(1, offCurve(offIc.get(1)));
            VerificationKey offKey = new VerificationKey(curve, vk.nPublic(), vk.alpha1(), vk.beta2(), vk.gamma2(), vk.delta2(), offIc);
            IllegalArgumentException icOff = assertThrows(IllegalArgumentException.class, () -> Groth16Verifier.verify(offKey, good));
            assertTrue(icOff.getMessage().contains("IC[1] is not a valid") && icOff.getMessage().contains("not on the curve"),
                    icOff.getMessage());
            VerificationKey outsideKey = new VerificationKey(curve, vk.nPublic(), vk.alpha1(), vk.beta2(),
                    io.cuzk.Point.ofCoordinates(curve, io.cuzk.Group.G2, q[0], q[1], q[2], q[3]), vk.delta2(), vk.ic());
            IllegalArgumentException gammaOut = assertThrows(IllegalArgumentException.class, () -> Groth16Verifier.verify(outsideKey, good));
            assertTrue(gammaOut.getMessage().contains("vk_gamma_2 is not a valid") && gammaOut.getMessage().contains("subgroup"),
                    gammaOut.getMessage());
            IllegalArgumentException gammaOutInBatch = assertThrows(IllegalArgumentException.class,
                    () -> Groth16Verifier.verifyBatch(outsideKey, batch));
            assertTrue(gammaOutInBatch.getMessage().contains("vk_gamma_2"), gammaOutInBatch.getMessage());
        }
        // the constructors refuse parts of another group or curve, naming them; nulls are named too
        Curve other = curve == Curve.BN254 ? Curve.BLS12_381 : Curve.BN254;
        IllegalArgumentException wrongGroup = assertThrows(IllegalArgumentException.class,
                () -> new Proof(curve, good.piB(), good.piB(), good.piC(), good.publicSignals()));
        assertTrue(wrongGroup.getMessage().startsWith("pi_a must be a " + curve.cliName() + " G1 point"), wrongGroup.getMessage());
        IllegalArgumentException wrongCurve = assertThrows(IllegalArgumentException.class, () -> new Proof(curve, good.piA(), good.piB(),
                io.cuzk.Points.generator(other, io.cuzk.Group.G1), good.publicSignals()));
        assertTrue(wrongCurve.getMessage().endsWith("not a " + other.cliName() + " G1 one"), wrongCurve.getMessage());
        assertTrue(assertThrows(NullPointerException.class, () -> new Proof(curve, good.piA(), null, good.piC(), good.publicSignals()))
                .getMessage().contains("pi_b"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new VerificationKey(curve, -1, vk.alpha1(), vk.beta2(), vk.gamma2(),
                vk.delta2(), List.of())).getMessage().startsWith("nPublic is -1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new VerificationKey(curve, vk.nPublic(), vk.beta2(), vk.beta2(),
                vk.gamma2(), vk.delta2(), vk.ic())).getMessage().startsWith("vk_alpha_1 must be a " + curve.cliName() + " G1 point"));
        assertTrue(assertThrows(NullPointerException.class, () -> Groth16Verifier.verifyBatch(null, List.of())).getMessage()
                .contains("verification key"));
        assertTrue(assertThrows(NullPointerException.class, () -> Groth16Verifier.verifyJson(vk, "p.json", null, "q.json", "[]"))
                .getMessage().contains("p.json"));
        // a proof that does not fit the key is named by its files, as in a batch
        IllegalArgumentException count = assertThrows(IllegalArgumentException.class, () -> Groth16Verifier.verifyJson(vk, "p.json",
                good.proofJson(), "q.json", "[\n \"1\"" + ",\n \"1\"".repeat(vk.nPublic()) + "\n]"));
        assertTrue(count.getMessage().startsWith("p.json with q.json has " + (vk.nPublic() + 1) + " public signals"), count.getMessage());
        List<VerificationKey> keys = List.of(vk, firstSeen(vk, 1), firstSeen(vk, 2));
        for (VerificationKey k : keys) {
            FormatException one = assertThrows(FormatException.class,
                    () -> Groth16Verifier.verifyJson(k, "bad-proof.json", outsideB, "public.json", good.publicJson()));
            assertTrue(one.getMessage().startsWith("bad-proof.json: pi_b: ") && one.getMessage().contains("subgroup"), one.getMessage());
        }
        assertFalse(Groth16Verifier.verifyJson(firstSeen(vk, 3), "proof.json", good.proofJson(), "public.json", good.publicJson()),
                "a valid proof against another key, first seen: invalid, not malformed");
        for (int at : new int[] {0, 5, texts.size() - 1}) {
            List<Groth16Verifier.ProofJson> withBad = new ArrayList<>(texts);
            withBad.set(at, new Groth16Verifier.ProofJson("proof-" + at + ".json", outsideB, "public.json", good.publicJson()));
            FormatException e = assertThrows(FormatException.class, () -> Groth16Verifier.verifyBatchJson(vk, withBad));
            assertTrue(e.getMessage().startsWith("proof-" + at + ".json: pi_b: "), e.getMessage());
        }
        // proofs malformed when read (pi_a[0] given a leading digit: not below p, or off the
        // curve), read in parallel: the first in the list is the one named, whichever thread
        // reads it first
        String longA = good.proofJson().replaceFirst("\"pi_a\"\\s*:\\s*\\[\\s*\"(\\d+)\"", "\"pi_a\": [\"1$1\"");
        assertTrue(!longA.equals(good.proofJson()), "the edit changed pi_a");
        for (int round = 0; round < 5; round++) {
            List<Groth16Verifier.ProofJson> twoBad = new ArrayList<>(texts);
            twoBad.set(3, new Groth16Verifier.ProofJson("first-bad.json", longA, "public.json", good.publicJson()));
            twoBad.set(texts.size() - 2, new Groth16Verifier.ProofJson("second-bad.json", longA, "public.json", good.publicJson()));
            FormatException e = assertThrows(FormatException.class, () -> Groth16Verifier.verifyBatchJson(vk, twoBad));
            assertTrue(e.getMessage().startsWith("first-bad.json: pi_a"), e.getMessage());
        }
    }

    /** The key with its IC[0] moved: a key the verifier has not prepared yet (its first verification runs four pairs). */
    static VerificationKey firstSeen(VerificationKey vk, int k) {
        List<io.cuzk.Point> ic = new ArrayList<>(vk.ic());
        ic.set(0, io.cuzk.Points.add(ic.get(0), io.cuzk.Points.multiply(io.cuzk.Points.generator(vk.curve(), io.cuzk.Group.G1),
                java.math.BigInteger.valueOf(1000 + k))));
        return new VerificationKey(vk.curve(), vk.nPublic(), vk.alpha1(), vk.beta2(), vk.gamma2(), vk.delta2(), ic);
    }

    /** The point with its last coordinate (y, or y's imaginary part) plus one: off its curve. */
    static io.cuzk.Point offCurve(io.cuzk.Point p) {
        java.math.BigInteger[] c = p.coordinates();
        c[c.length - 1] = c[c.length - 1].add(java.math.BigInteger.ONE).mod(p.curve().p());
        return io.cuzk.Point.ofCoordinates(p.curve(), p.group(), c);
    }

    /** proof.json with pi_b replaced by the affine G2 point q (as decimal [[x0, x1], [y0, y1], [1, 0]]). */
    static String withB(String proofJson, java.math.BigInteger[] q) throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode proof = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(proofJson);
        com.fasterxml.jackson.databind.node.ArrayNode b = proof.putArray("pi_b");
        b.addArray().add(q[0].toString()).add(q[1].toString());
        b.addArray().add(q[2].toString()).add(q[3].toString());
        b.addArray().add("1").add("0");
        return proof.toString();
    }

    /** Malformed input: one line naming the file and the field, exit 2 (usage), nothing about validity. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("circuits")
    void malformedInputIsUsageError(Curve curve, String circuit) throws Exception {
        Path dir = Circuits.dir(curve, circuit);
        Path vkFile = dir.resolve("verification_key.json");
        Path proofFile = tmp.resolve("proof.json"), publicFile = tmp.resolve("public.json");
        assertEquals(0, Cli.run("prove", "-q", dir.resolve("circuit.zkey").toString(), dir.resolve("witness.wtns").toString(),
                proofFile.toString(), publicFile.toString()).status());
        assertEquals(0, Cli.run("verify", vkFile.toString(), publicFile.toString(), proofFile.toString()).status(), "cuzk's own proof");
        // a copy, for batches in which each malformed proof below is one of two (expectMalformed)
        Path good = Files.createDirectories(tmp.resolve("good"));
        goodPublic = Files.copy(publicFile, good.resolve("public.json"));
        goodProof = Files.copy(proofFile, good.resolve("proof.json"));
        Cli.Result odd = Cli.run("verify", vkFile.toString(), publicFile.toString(), proofFile.toString(), goodPublic.toString());
        assertEquals(2, odd.status(), odd.out() + odd.err());
        assertTrue(odd.err().contains(goodPublic + " has no partner"), odd.err());
        JsonNode proof = JSON.readTree(proofFile.toFile());
        JsonNode pub = JSON.readTree(publicFile.toFile());
        // y + 1: off the curve
        com.fasterxml.jackson.databind.node.ObjectNode offCurve = proof.deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) offCurve.get("pi_a")).set(1,
                new java.math.BigInteger(proof.get("pi_a").get(1).asText()).add(java.math.BigInteger.ONE).toString());
        expectMalformed(vkFile, pub.toString(), offCurve.toString(), "pi_a", "point");
        // coordinates read by digits, not BigInteger: p itself, 130 digits, not digits, z = 2
        com.fasterxml.jackson.databind.node.ObjectNode atP = proof.deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) atP.get("pi_a")).set(0, curve.p().toString());
        expectMalformed(vkFile, pub.toString(), atP.toString(), "pi_a[0]", "is not below the field's modulus");
        com.fasterxml.jackson.databind.node.ObjectNode long130 = proof.deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) long130.get("pi_c")).set(1, "9".repeat(130)); // past 2^384: more words than either field has
        expectMalformed(vkFile, pub.toString(), long130.toString(), "pi_c[1]", "is not below the field's modulus");
        com.fasterxml.jackson.databind.node.ObjectNode letters = proof.deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) letters.get("pi_b").get(1)).set(0, "12x");
        expectMalformed(vkFile, pub.toString(), letters.toString(), "pi_b[1][0]", "not a non-negative decimal number");
        com.fasterxml.jackson.databind.node.ObjectNode z2 = proof.deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) z2.get("pi_c")).set(2, "2");
        expectMalformed(vkFile, pub.toString(), z2.toString(), "pi_c", "expected an affine point");
        // leading zeros are still the number: the proof stays valid
        com.fasterxml.jackson.databind.node.ObjectNode zeros = proof.deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) zeros.get("pi_a")).set(0, "000" + proof.get("pi_a").get(0).asText());
        Files.writeString(proofFile, zeros.toString());
        Files.writeString(publicFile, pub.toString());
        assertEquals(0, Cli.run("verify", vkFile.toString(), publicFile.toString(), proofFile.toString()).status(), "leading zeros");
        // numbers as snarkjs's reader takes them and no more: a blank or a control character
        // around the digits makes no number (snarkjs: invalid, where trimming them said OK), while
        // any count of leading zeros is still the number (snarkjs: OK), and a long one is too large
        com.fasterxml.jackson.databind.node.ArrayNode blank = pub.deepCopy();
        blank.set(0, " " + pub.get(0).asText());
        expectMalformed(vkFile, blank.toString(), proof.toString(), "[0]", "is not a non-negative decimal number");
        expectSnarkjsRefuses(vkFile, blank.toString(), proof.toString());
        com.fasterxml.jackson.databind.node.ObjectNode nul = proof.deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) nul.get("pi_a")).set(0, proof.get("pi_a").get(0).asText() + "\u0000");
        expectMalformed(vkFile, pub.toString(), nul.toString(), "pi_a[0]", "is not a non-negative decimal number");
        expectSnarkjsRefuses(vkFile, pub.toString(), nul.toString());
        com.fasterxml.jackson.databind.node.ArrayNode huge = pub.deepCopy();
        huge.set(0, "9".repeat(1000));
        expectMalformed(vkFile, huge.toString(), proof.toString(), "[0]", "is not below");
        huge.set(0, "0x" + "f".repeat(300));
        expectMalformed(vkFile, huge.toString(), proof.toString(), "[0]", "is not below");
        com.fasterxml.jackson.databind.node.ArrayNode padded = pub.deepCopy();
        padded.set(0, "0".repeat(300) + pub.get(0).asText());
        padded.set(pub.size() - 1, "0x" + "0".repeat(300) + new java.math.BigInteger(pub.get(pub.size() - 1).asText()).toString(16));
        com.fasterxml.jackson.databind.node.ObjectNode paddedProof = proof.deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) paddedProof.get("pi_c")).set(1, "0".repeat(300) + proof.get("pi_c").get(1).asText());
        Files.writeString(proofFile, paddedProof.toString());
        Files.writeString(publicFile, padded.toString());
        Cli.Result paddedOk = Cli.run("verify", vkFile.toString(), publicFile.toString(), proofFile.toString());
        assertEquals(0, paddedOk.status(), "300 leading zeros: " + paddedOk.out() + paddedOk.err());
        assertTrue(Node.snarkjs("groth16", "verify", vkFile.toString(), publicFile.toString(), proofFile.toString()).out().contains("OK!"),
                "snarkjs reads them alike");
        // a key with alpha, beta, gamma or delta at infinity (with one there, proofs of any public
        // signals verify: gamma's unbinds them) is malformed; so is an nPublic that contradicts IC
        // or is no number, while 5.0 is 5 to JSON.parse
        JsonNode vkJson = JSON.readTree(vkFile.toFile());
        Path otherKey = tmp.resolve("other-vk.json");
        Files.writeString(proofFile, proof.toString());
        Files.writeString(publicFile, pub.toString());
        for (String field : List.of("vk_alpha_1", "vk_beta_2", "vk_gamma_2", "vk_delta_2")) {
            com.fasterxml.jackson.databind.node.ObjectNode degenerate = vkJson.deepCopy();
            if (field.endsWith("_1")) {
                degenerate.putArray(field).add("0").add("1").add("0");
            } else {
                com.fasterxml.jackson.databind.node.ArrayNode q = degenerate.putArray(field);
                q.addArray().add("0").add("0");
                q.addArray().add("1").add("0");
                q.addArray().add("0").add("0");
            }
            Files.writeString(otherKey, degenerate.toString());
            Cli.Result r = Cli.run("verify", otherKey.toString(), publicFile.toString(), proofFile.toString());
            assertEquals(2, r.status(), field + ": " + r.out() + r.err());
            assertTrue(r.err().contains(field + ": the point at infinity"), r.err());
            assertFalse(Node.snarkjs("groth16", "verify", otherKey.toString(), publicFile.toString(), proofFile.toString()).out()
                    .contains("OK!"), "snarkjs does not accept the proof under " + field + " at infinity either");
        }
        com.fasterxml.jackson.databind.node.ObjectNode wrongCount = vkJson.deepCopy();
        wrongCount.put("nPublic", pub.size() + 1);
        Files.writeString(otherKey, wrongCount.toString());
        Cli.Result countSaid = Cli.run("verify", otherKey.toString(), publicFile.toString(), proofFile.toString());
        assertEquals(2, countSaid.status(), countSaid.out() + countSaid.err());
        assertTrue(countSaid.err().contains("nPublic: " + (pub.size() + 1) + " public signals, but IC holds " + (pub.size() + 1) + " points"),
                countSaid.err());
        wrongCount.put("nPublic", Integer.toString(pub.size()));
        Files.writeString(otherKey, wrongCount.toString());
        Cli.Result textSaid = Cli.run("verify", otherKey.toString(), publicFile.toString(), proofFile.toString());
        assertEquals(2, textSaid.status(), textSaid.out() + textSaid.err());
        assertTrue(textSaid.err().contains("nPublic: \"" + pub.size() + "\" is not a whole number"), textSaid.err());
        wrongCount.put("nPublic", (double) pub.size());
        Files.writeString(otherKey, wrongCount.toString());
        assertEquals(0, Cli.run("verify", otherKey.toString(), publicFile.toString(), proofFile.toString()).status(), wrongCount.toString());
        // a signal >= r
        com.fasterxml.jackson.databind.node.ArrayNode big = pub.deepCopy();
        big.set(0, curve.r().toString());
        expectMalformed(vkFile, big.toString(), proof.toString(), "[0]", "not below");
        // pi_b on the twist but outside G2 (its subgroup check made by the pairing)
        expectMalformed(vkFile, pub.toString(), withB(proof.toString(), TwistPoints.outsideG2(curve)), "pi_b", "subgroup");
        // one signal too many
        com.fasterxml.jackson.databind.node.ArrayNode more = pub.deepCopy();
        more.add("1");
        expectMalformed(vkFile, more.toString(), proof.toString(), "public signals", "expects");
        // not JSON, and a proof of the other curve
        expectMalformed(vkFile, pub.toString(), "{ nope", "proof.json", "not JSON");
        Curve other = curve == Curve.BN254 ? Curve.BLS12_381 : Curve.BN254;
        Path otherVk = Circuits.dir(other, circuit).resolve("verification_key.json");
        Files.writeString(proofFile, proof.toString());
        Files.writeString(publicFile, pub.toString());
        Cli.Result r = Cli.run("verify", otherVk.toString(), publicFile.toString(), proofFile.toString());
        assertEquals(2, r.status(), r.out() + r.err());
        assertThrows(FormatException.class, () -> VerificationKey.parse("vk.json", "{\"curve\": \"bn128\", \"IC\": []}"));
        // a proof whose "curve" names the other curve: said so, before its numbers are blamed
        com.fasterxml.jackson.databind.node.ObjectNode renamed = proof.deepCopy();
        renamed.put("curve", other.snarkjsName());
        expectMalformed(vkFile, pub.toString(), renamed.toString(), "do not fit", "proof.json is a " + other.snarkjsName() + " proof");
        // files that cannot be read: exit 2 too (exit 1 means a proof read and rejected), the file named
        expectFileProblem(vkFile, tmp.resolve("missing.json"), publicFile, "missing.json: no such file");
        expectFileProblem(vkFile, Files.createDirectories(tmp.resolve("folder.json")), publicFile, "folder.json: is a folder, not a file");
        expectFileProblem(dir.resolve("circuit.zkey"), proofFile, publicFile, "circuit.zkey: not JSON: not UTF-8 text");
        expectFileProblem(vkFile, BadInputsTest.fifo(tmp.resolve("fifo.json")), publicFile, "fifo.json: is not a regular file");
        // as snarkjs reads them: no "curve" (the key's), the curve's other names, 0x coordinates
        // and signals; snarkjs accepts the same files
        com.fasterxml.jackson.databind.node.ObjectNode noCurve = proof.deepCopy();
        noCurve.remove("curve");
        com.fasterxml.jackson.databind.node.ObjectNode unknownCurve = proof.deepCopy();
        unknownCurve.put("curve", "no such curve"); // snarkjs never reads the proof's field
        com.fasterxml.jackson.databind.node.ObjectNode hex = proof.deepCopy();
        hex.put("curve", curve == Curve.BN254 ? "ALT_BN128" : "BLS12-381");
        for (String field : List.of("pi_a", "pi_c")) {
            com.fasterxml.jackson.databind.node.ArrayNode a = (com.fasterxml.jackson.databind.node.ArrayNode) hex.get(field);
            for (int i = 0; i < 2; i++) {
                a.set(i, "0x" + new java.math.BigInteger(a.get(i).asText()).toString(16));
            }
        }
        com.fasterxml.jackson.databind.node.ArrayNode hexPub = pub.deepCopy();
        hexPub.set(0, "0x" + new java.math.BigInteger(pub.get(0).asText()).toString(16));
        for (String[] files : List.of(new String[] {noCurve.toString(), pub.toString()}, new String[] {unknownCurve.toString(), pub.toString()},
                new String[] {hex.toString(), hexPub.toString()})) {
            Files.writeString(proofFile, files[0]);
            Files.writeString(publicFile, files[1]);
            Cli.Result ok = Cli.run("verify", vkFile.toString(), publicFile.toString(), proofFile.toString());
            assertEquals(0, ok.status(), files[0] + ": " + ok.out() + ok.err());
            Node.Result theirs = Node.snarkjs("groth16", "verify", vkFile.toString(), publicFile.toString(), proofFile.toString());
            assertTrue(theirs.out().contains("OK!"), "snarkjs accepts " + files[0] + ": " + theirs.out() + theirs.err());
        }
        // public signals as bare JSON numbers: JSON.parse makes each a double, so one past 2^53 is
        // rounded and the proof no longer fits it; cuzk's answer is snarkjs's either way
        StringBuilder bare = new StringBuilder("[");
        boolean rounded = false;
        for (int i = 0; i < pub.size(); i++) {
            java.math.BigInteger v = new java.math.BigInteger(pub.get(i).asText());
            rounded |= v.bitLength() > 53 && !new java.math.BigDecimal(v.doubleValue()).toBigInteger().equals(v);
            bare.append(i == 0 ? "" : ", ").append(v);
        }
        Files.writeString(proofFile, proof.toString());
        Files.writeString(publicFile, bare.append("]").toString());
        Cli.Result oursBare = Cli.run("verify", vkFile.toString(), publicFile.toString(), proofFile.toString());
        Node.Result theirsBare = Node.snarkjs("groth16", "verify", vkFile.toString(), publicFile.toString(), proofFile.toString());
        assertEquals(rounded ? 1 : 0, oursBare.status(), bare + ": " + oursBare.out() + oursBare.err());
        assertEquals(!rounded, theirsBare.out().contains("OK!"), "snarkjs on " + bare + ": " + theirsBare.out() + theirsBare.err());
        // without a curve, export-calldata finds it from the points (snarkjs does not read it either)
        Files.writeString(proofFile, noCurve.toString());
        Files.writeString(publicFile, pub.toString());
        Cli.Result noCurveCalldata = Cli.run("export-calldata", publicFile.toString(), proofFile.toString());
        assertEquals(0, noCurveCalldata.status(), noCurveCalldata.err());
        assertEquals(Node.snarkjs("zkey", "export", "soliditycalldata", publicFile.toString(), proofFile.toString()).out().strip(),
                noCurveCalldata.out().strip(), "calldata of a proof without its curve");
        assertEquals(curve, Proof.read(proofFile, publicFile).curve(), "the curve its points lie on");
        // ... and a point on neither curve says so
        com.fasterxml.jackson.databind.node.ObjectNode noCurveOff = offCurve.deepCopy();
        noCurveOff.remove("curve");
        Files.writeString(proofFile, noCurveOff.toString());
        FormatException neither = assertThrows(FormatException.class, () -> Proof.read(proofFile, publicFile));
        assertTrue(neither.getMessage().contains("curve: missing, and the points are on neither curve"), neither.getMessage());
        // calldata of a proof with points at infinity as snarkjs writes them ([0, 1, 0]) and as
        // affine zeros ([0, 0, 1], the Ethereum encoding's infinity): what snarkjs prints, the file's numbers
        com.fasterxml.jackson.databind.node.ObjectNode atInfinity = proof.deepCopy();
        atInfinity.putArray("pi_a").add("0").add("1").add("0");
        atInfinity.putArray("pi_c").add("0").add("0").add("1");
        com.fasterxml.jackson.databind.node.ArrayNode bInf = atInfinity.putArray("pi_b");
        bInf.addArray().add("0").add("0");
        bInf.addArray().add("1").add("0");
        bInf.addArray().add("0").add("0");
        Files.writeString(proofFile, atInfinity.toString());
        Files.writeString(publicFile, pub.toString());
        Cli.Result ours = Cli.run("export-calldata", publicFile.toString(), proofFile.toString());
        assertEquals(0, ours.status(), ours.err());
        Node.Result theirs = Node.snarkjs("zkey", "export", "soliditycalldata", publicFile.toString(), proofFile.toString());
        assertEquals(theirs.out().strip(), ours.out().strip(), "calldata of points at infinity");
        // ... and as bare JSON numbers, 1.0 among them (JSON.parse's 1)
        atInfinity.putArray("pi_a").add(0).add(1.0).add(0);
        Files.writeString(proofFile, atInfinity.toString());
        Cli.Result oursBareInf = Cli.run("export-calldata", publicFile.toString(), proofFile.toString());
        assertEquals(0, oursBareInf.status(), oursBareInf.err());
        assertEquals(Node.snarkjs("zkey", "export", "soliditycalldata", publicFile.toString(), proofFile.toString()).out().strip(),
                oursBareInf.out().strip(), "calldata of bare numbers: " + atInfinity);
    }

    /**
     * Where cuzk's verify is stricter than snarkjs's (README): a BLS12-381 proof whose A or C
     * carries a part of the cofactor's order ((0, 2), of order 3, added to it) is on the curve and
     * pairs as the proof without it, so snarkjs, which checks no subgroup, says OK; cuzk's readers
     * refuse it as malformed (exit 2, the field named), as the rule "points in their subgroup"
     * asks; a Proof made with its constructor verifies as its G1 part does (verify's javadoc).
     */
    @org.junit.jupiter.api.Test
    void aCofactorPartInAOrCIsMalformedWhereSnarkjsSaysOk() throws Exception {
        Curve curve = Curve.BLS12_381;
        Path dir = Circuits.dir(curve, "multi_main");
        Path vkFile = dir.resolve("verification_key.json");
        VerificationKey vk = VerificationKey.read(vkFile);
        Proof good;
        try (ProvingKey key = ProvingKey.read(dir.resolve("circuit.zkey"));
                io.cuzk.groth16.Witness w = io.cuzk.groth16.Witness.read(dir.resolve("witness.wtns"))) {
            good = new io.cuzk.groth16.Groth16Prover().prove(key, w);
        }
        io.cuzk.Point order3 = io.cuzk.Point.ofCoordinates(curve, io.cuzk.Group.G1, java.math.BigInteger.ZERO, java.math.BigInteger.TWO);
        for (String field : List.of("pi_a", "pi_c")) {
            Proof tampered = field.equals("pi_a")
                    ? new Proof(curve, io.cuzk.Points.add(good.piA(), order3), good.piB(), good.piC(), good.publicSignals())
                    : new Proof(curve, good.piA(), good.piB(), io.cuzk.Points.add(good.piC(), order3), good.publicSignals());
            Path proofFile = tmp.resolve(field + "-proof.json"), publicFile = tmp.resolve("public.json");
            Files.writeString(proofFile, tampered.proofJson());
            Files.writeString(publicFile, tampered.publicJson());
            Node.Result theirs = Node.snarkjs("groth16", "verify", vkFile.toString(), publicFile.toString(), proofFile.toString());
            assertTrue(theirs.out().contains("OK!"), "snarkjs says OK: " + theirs.out() + theirs.err());
            Cli.Result ours = Cli.run("verify", vkFile.toString(), publicFile.toString(), proofFile.toString());
            assertEquals(2, ours.status(), ours.out() + ours.err());
            assertTrue(ours.err().startsWith("cuzk verify: " + proofFile + ": " + field + ": ") && ours.err().contains("subgroup"), ours.err());
            expectNativeDeclines(vkFile, publicFile, proofFile); // on the curve, outside G1: the Java command's to word
            assertTrue(Groth16Verifier.verify(vk, tampered), "the constructor's proof: its G1 part's answer");
            // in a batch read from the text (its A and C checked in G1 together, eight at a time
            // where the library can): the first proof in the list's order that fails a check is
            // named, with the message it gets read alone, whatever check it fails
            Groth16Verifier.ProofJson ok = new Groth16Verifier.ProofJson("proof.json", good.proofJson(), "public.json", good.publicJson());
            Groth16Verifier.ProofJson bad = new Groth16Verifier.ProofJson("tampered.json", tampered.proofJson(), "public.json",
                    tampered.publicJson());
            String notJson = good.proofJson().substring(1);
            for (int at : new int[] {0, 7, 8, 19}) {
                List<Groth16Verifier.ProofJson> batch = new ArrayList<>(java.util.Collections.nCopies(20, ok));
                batch.set(at, bad);
                if (at < 19) {
                    batch.set(19, new Groth16Verifier.ProofJson("later.json", notJson, "public.json", good.publicJson()));
                }
                FormatException e = assertThrows(FormatException.class, () -> Groth16Verifier.verifyBatchJson(vk, batch));
                assertTrue(e.getMessage().startsWith("tampered.json: " + field + ": ") && e.getMessage().contains("subgroup"), e.getMessage());
                if (at > 0) { // a proof before it with too many public signals is named first
                    batch.set(at - 1, new Groth16Verifier.ProofJson("counted.json", good.proofJson(), "signals.json",
                            "[\n \"1\"" + ",\n \"1\"".repeat(vk.nPublic()) + "\n]"));
                    IllegalArgumentException c = assertThrows(IllegalArgumentException.class, () -> Groth16Verifier.verifyBatchJson(vk, batch));
                    assertTrue(c.getMessage().startsWith("counted.json with signals.json has "), c.getMessage());
                }
            }
            assertTrue(Groth16Verifier.verifyBatchJson(vk, java.util.Collections.nCopies(20, ok)).valid(), "the good proofs alone");
        }
    }

    /** snarkjs's verify does not say OK to these files (it says invalid, or fails on them). */
    void expectSnarkjsRefuses(Path vk, String publicJson, String proofJson) throws Exception {
        Path proofFile = tmp.resolve("proof.json"), publicFile = tmp.resolve("public.json");
        Files.writeString(proofFile, proofJson);
        Files.writeString(publicFile, publicJson);
        Node.Result theirs = Node.snarkjs("groth16", "verify", vk.toString(), publicFile.toString(), proofFile.toString());
        assertFalse(theirs.out().contains("OK!"), "snarkjs refuses " + publicJson + " / " + proofJson + ": " + theirs.out());
    }

    /** verify with one of its files unreadable: exit 2, one line naming the file and why. */
    void expectFileProblem(Path vk, Path proof, Path pub, String says) {
        expectNativeDeclines(vk, pub, proof);
        Cli.Result r = Cli.run("verify", vk.toString(), pub.toString(), proof.toString());
        assertEquals(2, r.status(), r.out() + r.err());
        assertEquals("", r.out());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("cuzk verify: ") && r.err().contains(says), r.err());
    }

    /** bin/cuzk's native verifier leaves malformed input to the Java command, which words it. */
    static void expectNativeDeclines(Path vk, Path pub, Path proof) {
        NativeVerifier.Result n = NativeVerifier.run(vk, pub, proof);
        assertEquals(NativeVerifier.DECLINED, n.status(), "native: " + n.out() + n.err());
        assertEquals("", n.out() + n.err());
    }

    /** A valid proof of the key malformedInputIsUsageError checks, and its public signals. */
    Path goodProof, goodPublic;

    /**
     * verify of a malformed proof: exit 2 and one line; the same as either of a batch's two proofs
     * (the other one valid), the malformed one's file named.
     */
    void expectMalformed(Path vk, String publicJson, String proofJson, String field, String why) throws Exception {
        Path proofFile = tmp.resolve("proof.json"), publicFile = tmp.resolve("public.json");
        Files.writeString(proofFile, proofJson);
        Files.writeString(publicFile, publicJson);
        String bad = field.equals("[0]") ? publicFile.toString() : proofFile.toString(); // the file the message names
        expectNativeDeclines(vk, publicFile, proofFile);
        for (List<String> args : List.of(List.of(publicFile.toString(), proofFile.toString()),
                List.of(goodPublic.toString(), goodProof.toString(), publicFile.toString(), proofFile.toString()),
                List.of(publicFile.toString(), proofFile.toString(), goodPublic.toString(), goodProof.toString()))) {
            List<String> line = new ArrayList<>(List.of("verify", vk.toString()));
            line.addAll(args);
            Cli.Result r = Cli.run(line.toArray(String[]::new));
            assertEquals(2, r.status(), args + ": " + r.out() + r.err());
            assertEquals("", r.out());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("cuzk verify: ") && r.err().contains(field) && r.err().contains(why), r.err());
            if (args.size() > 2) {
                assertTrue(r.err().contains(bad), "the malformed proof's file named: " + r.err());
            }
        }
    }
}
