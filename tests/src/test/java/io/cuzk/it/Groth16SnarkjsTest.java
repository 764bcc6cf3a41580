package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cuzk.Backend;
import io.cuzk.Curve;
import io.cuzk.PointVector;
import io.cuzk.groth16.Blinding;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our Groth16 proofs against snarkjs 0.7.6, on circuits compiled by circom2 for both curves:
 * {@code snarkjs groth16 verify} accepts them; with r and s fixed they equal snarkjs's own proofs
 * bit for bit; and a proof of a tampered witness is rejected (so the verifier really checks).
 */
class Groth16SnarkjsTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static Stream<Arguments> circuits() {
        return Stream.of(Curve.values()).flatMap(c -> Stream.of(Circuits.NAMES).map(n -> Arguments.of(c, n)));
    }

    static Node.Result verify(Path dir, Path publicJson, Path proofJson) {
        return Node.snarkjs("groth16", "verify", dir.resolve("verification_key.json").toString(), publicJson.toString(),
                proofJson.toString());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("circuits")
    void snarkjsVerifiesOurProofs(Curve curve, String name) throws IOException {
        Path dir = Circuits.dir(curve, name);
        try (ProvingKey key = ProvingKey.read(dir.resolve("circuit.zkey")); Witness w = Witness.read(dir.resolve("witness.wtns"))) {
            assertEquals(curve, key.curve());
            Proof proof = new Groth16Prover().prove(key, w);
            Path pj = tmp.resolve("proof.json"), pub = tmp.resolve("public.json");
            proof.write(pj, pub);
            Node.Result r = verify(dir, pub, pj);
            assertEquals(0, r.exit(), r.out() + r.err());
            assertTrue(r.out().contains("OK!"), r.out());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("circuits")
    void fixedBlindingGivesSnarkjsProofBitForBit(Curve curve, String name) throws IOException {
        Path dir = Circuits.dir(curve, name);
        Random rnd = new Random(name.hashCode() + curve.ordinal());
        BigInteger r = new BigInteger(250, rnd), s = new BigInteger(250, rnd);
        Path theirs = tmp.resolve("snarkjs-proof.json"), theirsPub = tmp.resolve("snarkjs-public.json");
        Node.run("snarkjs_prove_fixed.mjs", dir.resolve("circuit.zkey").toString(), dir.resolve("witness.wtns").toString(),
                theirs.toString(), theirsPub.toString(), r.toString(), s.toString());
        try (ProvingKey key = ProvingKey.read(dir.resolve("circuit.zkey")); Witness w = Witness.read(dir.resolve("witness.wtns"))) {
            Proof ours = new Groth16Prover(Backend.cpu(), Blinding.fixed(r, s)).prove(key, w);
            assertEquals(JSON.readTree(Files.readString(theirs)), JSON.readTree(ours.proofJson()), "proof.json");
            assertEquals(JSON.readTree(Files.readString(theirsPub)), JSON.readTree(ours.publicJson()), "public.json");
            // and the files, byte for byte as `snarkjs groth16 prove` writes them
            Path pj = tmp.resolve("proof.json"), pub = tmp.resolve("public.json");
            ours.write(pj, pub);
            assertEquals(Files.readString(theirs), Files.readString(pj), "proof.json's bytes");
            assertEquals(Files.readString(theirsPub), Files.readString(pub), "public.json's bytes");
        }
    }

    /** A proof of a witness that does not satisfy the circuit must be refused by snarkjs. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("circuits")
    void snarkjsRejectsTheProofOfATamperedWitness(Curve curve, String name) throws IOException {
        Path dir = Circuits.dir(curve, name);
        byte[] wtns = Files.readAllBytes(dir.resolve("witness.wtns"));
        // the last value is an internal signal; add 1 to its lowest byte (values are little-endian, below r)
        wtns[wtns.length - 32] ^= 1;
        Path bad = tmp.resolve("tampered.wtns");
        Files.write(bad, wtns);
        try (ProvingKey key = ProvingKey.read(dir.resolve("circuit.zkey")); Witness w = Witness.read(bad)) {
            Proof proof = new Groth16Prover().prove(key, w);
            Path pj = tmp.resolve("proof.json"), pub = tmp.resolve("public.json");
            proof.write(pj, pub);
            Node.Result r = verify(dir, pub, pj);
            assertNotEquals(0, r.exit(), "snarkjs accepted a proof of a tampered witness: " + r.out());
            assertTrue(r.out().contains("Invalid proof"), r.out() + r.err());
        }
    }

    /** The in-memory API: key and witness held in segments the caller owns. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("circuits")
    void provesFromMemory(Curve curve, String name) throws IOException {
        Path dir = Circuits.dir(curve, name);
        byte[] zkey = Files.readAllBytes(dir.resolve("circuit.zkey"));
        byte[] wtns = Files.readAllBytes(dir.resolve("witness.wtns"));
        try (Arena arena = Arena.ofShared()) {
            MemorySegment zs = arena.allocate(zkey.length + 3L).asSlice(3); // deliberately unaligned
            MemorySegment.copy(MemorySegment.ofArray(zkey), 0, zs, 0, zkey.length);
            MemorySegment ws = arena.allocate(wtns.length);
            MemorySegment.copy(MemorySegment.ofArray(wtns), 0, ws, 0, wtns.length);
            try (ProvingKey key = ProvingKey.parse("in-memory zkey", zs); Witness w = Witness.parse("in-memory wtns", ws)) {
                // the point sections are used where they are (at odd addresses here), not copied
                for (PointVector v : List.of(key.a(), key.b1(), key.b2(), key.c(), key.h())) {
                    long at = v.segment().address() - zs.address();
                    assertTrue(at > 0 && at + v.segment().byteSize() <= zkey.length, v + " is not a view of the zkey's bytes");
                }
                Proof proof = new Groth16Prover(Backend.cpu(1), Blinding.secure()).prove(key, w);
                Path pj = tmp.resolve("proof.json"), pub = tmp.resolve("public.json");
                proof.write(pj, pub);
                assertEquals(0, verify(dir, pub, pj).exit());
            }
        }
    }

    /** Two proofs of one witness differ (fresh r and s from SecureRandom) and both verify. */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void blindingIsFreshEveryTime(Curve curve) throws IOException {
        Path dir = Circuits.dir(curve, "multi_main");
        try (ProvingKey key = ProvingKey.read(dir.resolve("circuit.zkey")); Witness w = Witness.read(dir.resolve("witness.wtns"))) {
            Groth16Prover prover = new Groth16Prover();
            Proof p1 = prover.prove(key, w), p2 = prover.prove(key, w);
            assertNotEquals(p1.proofJson(), p2.proofJson());
            assertEquals(p1.publicJson(), p2.publicJson());
            for (Proof p : new Proof[] {p1, p2}) {
                Path pj = tmp.resolve("proof.json"), pub = tmp.resolve("public.json");
                p.write(pj, pub);
                assertEquals(0, verify(dir, pub, pj).exit());
            }
        }
    }
}
