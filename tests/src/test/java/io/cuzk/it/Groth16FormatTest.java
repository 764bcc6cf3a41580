package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Curve;
import io.cuzk.groth16.FormatException;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.KeyStore;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed .zkey and .wtns input: each case gets a {@link FormatException} whose message names
 * the file, the section and what is wrong; nothing is proved from it.
 */
class Groth16FormatTest {
    @TempDir
    Path tmp;

    static Path set(Curve c, String name) {
        return Circuits.dir(c, name);
    }

    /** Section id -> {header offset, payload offset, size}, parsed here independently of the reader. */
    static Map<Integer, long[]> sections(byte[] f) {
        ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
        int n = b.getInt(8);
        Map<Integer, long[]> out = new LinkedHashMap<>();
        int pos = 12;
        for (int i = 0; i < n; i++) {
            int id = b.getInt(pos);
            long size = b.getLong(pos + 4);
            out.put(id, new long[] {pos, pos + 12, size});
            pos += 12 + (int) size;
        }
        return out;
    }

    Path write(String name, byte[] bytes) throws IOException {
        Path p = tmp.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    static byte[] zkey() throws IOException {
        return Files.readAllBytes(set(Curve.BN254, "multi_main").resolve("circuit.zkey"));
    }

    static byte[] wtns(Curve c, String name) throws IOException {
        return Files.readAllBytes(set(c, name).resolve("witness.wtns"));
    }

    FormatException badKey(String file, byte[] bytes) throws IOException {
        Path p = write(file, bytes);
        FormatException e = assertThrows(FormatException.class, () -> ProvingKey.read(p).close());
        assertTrue(e.getMessage().startsWith(p.toString()), "names the file: " + e.getMessage());
        return e;
    }

    FormatException badWitness(String file, byte[] bytes) throws IOException {
        Path p = write(file, bytes);
        FormatException e = assertThrows(FormatException.class, () -> Witness.read(p).close());
        assertTrue(e.getMessage().startsWith(p.toString()), "names the file: " + e.getMessage());
        return e;
    }

    static void contains(Exception e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' missing from: " + e.getMessage());
        }
    }

    @Test
    void wrongMagicAndVersion() throws IOException {
        byte[] z = zkey();
        byte[] m = z.clone();
        System.arraycopy("wtns".getBytes(StandardCharsets.US_ASCII), 0, m, 0, 4);
        contains(badKey("magic.zkey", m), "wrong magic: expected 'zkey', found 'wtns'");
        byte[] v = z.clone();
        v[4] = 7;
        contains(badKey("version.zkey", v), "unsupported version 7");
        contains(badKey("empty.zkey", new byte[0]), "truncated");
        contains(badWitness("magic.wtns", z), "wrong magic: expected 'wtns', found 'zkey'");
    }

    @Test
    void truncatedAndMissingSections() throws IOException {
        byte[] z = zkey();
        long[] h = sections(z).get(9);
        byte[] cut = Arrays.copyOf(z, (int) (h[1] + h[2] / 2));
        FormatException e = badKey("cut.zkey", cut);
        contains(e, "section 9 (H points): truncated: declares " + h[2] + " bytes but only " + h[2] / 2 + " remain");
        assertEquals("section 9 (H points)", e.section());

        byte[] missing = z.clone();
        long[] b2 = sections(z).get(7);
        ByteBuffer.wrap(missing).order(ByteOrder.LITTLE_ENDIAN).putInt((int) b2[0], 77);
        contains(badKey("missing.zkey", missing), "section 7 (B2 points): missing");

        // a header that claims more variables than the point sections hold
        byte[] vars = z.clone();
        long[] g = sections(z).get(2);
        ByteBuffer bb = ByteBuffer.wrap(vars).order(ByteOrder.LITTLE_ENDIAN);
        int nVarsOffset = (int) g[1] + 4 + 32 + 4 + 32;
        bb.putInt(nVarsOffset, bb.getInt(nVarsOffset) + 1);
        contains(badKey("vars.zkey", vars), "section 5 (A points): truncated");
    }

    /**
     * A key's close hooks run once, at its close, whatever one throws (the memory is freed all
     * the same); a second close does nothing; a hook offered to a closed key is refused, not lost.
     */
    @Test
    void closeHooksRunOnceAndAClosedKeyTakesNone() throws IOException {
        ProvingKey k = ProvingKey.read(set(Curve.BN254, "multi_main").resolve("circuit.zkey"));
        java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
        k.onClose(ran::incrementAndGet);
        k.onClose(() -> {
            throw new IllegalStateException("a hook that fails");
        });
        assertThrows(IllegalStateException.class, k::close);
        assertEquals(1, ran.get());
        assertThrows(IllegalStateException.class, () -> k.ic().get(0), "the memory is freed although a hook threw");
        k.close(); // again: nothing
        assertEquals(1, ran.get());
        contains(assertThrows(IllegalStateException.class, () -> k.onClose(ran::incrementAndGet)), "is closed");
        assertEquals(1, ran.get());
    }

    /**
     * A key or a witness closed while another thread proves with it: close waits for the proof in
     * progress (its synthesis reads them through addresses the JDK does not count, and a shared
     * arena cannot close under a downcall: a close that gave up there left the key marked closed
     * with its memory never freed), frees the memory, runs the key's hooks once; every proof made
     * is valid, and the proving thread's next proof fails with IllegalStateException. A second
     * close of either does nothing.
     */
    @Test
    void closingWhileAnotherThreadProvesFreesTheMemory() throws Exception {
        Path dir = set(Curve.BN254, "poseidon_main");
        for (int round = 0; round < 8; round++) {
            ProvingKey k = ProvingKey.read(dir.resolve("circuit.zkey"));
            Witness w = Witness.read(dir.resolve("witness.wtns"));
            io.cuzk.groth16.VerificationKey vk = io.cuzk.groth16.VerificationKey.of(k);
            java.util.concurrent.atomic.AtomicInteger hooks = new java.util.concurrent.atomic.AtomicInteger();
            k.onClose(hooks::incrementAndGet);
            java.util.concurrent.CountDownLatch proving = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicReference<Throwable> unexpected = new java.util.concurrent.atomic.AtomicReference<>();
            Thread prover = new Thread(() -> {
                try {
                    while (true) {
                        proving.countDown();
                        io.cuzk.groth16.Proof made = new Groth16Prover().prove(k, w);
                        if (!io.cuzk.groth16.Groth16Verifier.verify(vk, made)) {
                            throw new AssertionError("a proof made while its key or witness closed does not verify");
                        }
                    }
                } catch (IllegalStateException closed) {
                    // what a proof meets once its key or witness is closed
                } catch (Throwable t) {
                    unexpected.set(t);
                }
            });
            prover.setDaemon(true);
            prover.start();
            proving.await();
            Thread.sleep(5 + 7 * round); // into a proof, at a different phase each round
            if (round % 2 == 0) {
                k.close();
            } else {
                w.close();
            }
            prover.join(60_000);
            assertTrue(!prover.isAlive(), "the prover stopped at its next use of what was closed");
            assertEquals(null, unexpected.get());
            k.close();
            w.close();
            w.close(); // again: nothing
            assertEquals(1, hooks.get());
            assertThrows(IllegalStateException.class, () -> k.ic().get(0), "the key's memory is freed");
            assertThrows(IllegalStateException.class, () -> w.values().segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0),
                    "the witness's memory is freed");
        }
    }

    /** A key is shared (the KeyStore's leases): every view of it is read-only, read or mapped. */
    @Test
    void aKeysViewsAreReadOnly() throws IOException {
        Path zkey = set(Curve.BLS12_381, "multi_main").resolve("circuit.zkey");
        for (boolean mapped : new boolean[] {false, true}) {
            try (ProvingKey k = mapped ? ProvingKey.map(zkey) : ProvingKey.read(zkey)) {
                for (io.cuzk.PointVector v : java.util.List.of(k.ic(), k.a(), k.b1(), k.b2(), k.c(), k.h())) {
                    assertTrue(v.segment().isReadOnly(), v.toString());
                }
                assertTrue(k.coefficients().isReadOnly());
                io.cuzk.Point before = k.ic().get(0);
                RuntimeException e = assertThrows(RuntimeException.class, () -> k.ic().set(0, k.alpha1()));
                contains(e, "read-only");
                assertEquals(before, k.ic().get(0));
            }
        }
    }

    /**
     * ProvingKey.shape reads the two header sections alone (what a prover prepares for while the
     * whole key is read): the whole key's figures, the same header errors, and no point checks.
     */
    @Test
    void shapeReadsTheHeadersAlone() throws IOException {
        for (Curve c : Curve.values()) {
            Path key = set(c, "multi_main").resolve("circuit.zkey");
            try (ProvingKey k = ProvingKey.read(key)) {
                assertEquals(new ProvingKey.Shape(k.curve(), k.nVars(), k.nPublic(), k.domainSize()), ProvingKey.shape(key));
            }
        }
        byte[] q = zkey();
        q[(int) sections(q).get(2)[1] + 4] ^= 0x10; // the low byte of q
        Path wrongCurve = write("curve-shape.zkey", q);
        contains(assertThrows(FormatException.class, () -> ProvingKey.shape(wrongCurve)),
                "section 2 (Groth16 header): unsupported curve");
        byte[] off = zkey();
        off[(int) sections(off).get(5)[1] + 64 + 5] ^= 0x01; // x of A[1]
        Path offCurve = write("offcurve-shape.zkey", off);
        assertEquals(Curve.BN254, ProvingKey.shape(offCurve).curve());
        contains(badKey("offcurve-read.zkey", off), "section 5 (A points): point 1: the point is not on the curve");
    }

    @Test
    void unsupportedCurveAndProtocols() throws IOException {
        byte[] q = zkey();
        long[] g = sections(q).get(2);
        q[(int) g[1] + 4] ^= 0x10; // the low byte of q
        contains(badKey("curve.zkey", q), "section 2 (Groth16 header): unsupported curve");
        Path dir = set(Curve.BN254, "multi_main");
        contains(badKey("plonk.zkey", Files.readAllBytes(dir.resolve("plonk.zkey"))),
                "section 1 (header): not a Groth16 key: protocol 2 (PLONK)");
        contains(badKey("fflonk.zkey", Files.readAllBytes(dir.resolve("fflonk.zkey"))),
                "section 1 (header): not a Groth16 key: protocol 10 (FFLONK)");
    }

    @Test
    void invalidPointsInTheKey() throws IOException {
        byte[] z = zkey();
        long[] a = sections(z).get(5);
        byte[] off = z.clone();
        off[(int) a[1] + 64 + 5] ^= 0x01; // x of A[1]
        contains(badKey("offcurve.zkey", off), "section 5 (A points): point 1: the point is not on the curve");
        byte[] big = z.clone();
        Arrays.fill(big, (int) a[1] + 64 * 2, (int) a[1] + 64 * 2 + 32, (byte) 0xff);
        contains(badKey("noncanonical.zkey", big), "section 5 (A points): point 2: a coordinate is not below the field modulus");
    }

    @Test
    void witnessProblems() throws IOException {
        byte[] w = wtns(Curve.BN254, "multi_main");
        byte[] n8 = w.clone();
        long[] h = sections(w).get(1);
        ByteBuffer.wrap(n8).order(ByteOrder.LITTLE_ENDIAN).putInt((int) h[1], 48);
        contains(badWitness("n8.wtns", n8), "section 1 (header): field elements of 48 bytes");
        byte[] field = w.clone();
        field[(int) h[1] + 4] ^= 2;
        contains(badWitness("field.wtns", field), "section 1 (header): unsupported field");
        byte[] big = w.clone();
        long[] v = sections(w).get(2);
        Arrays.fill(big, (int) v[1] + 32 * 3, (int) v[1] + 32 * 4, (byte) 0xff);
        contains(badWitness("big.wtns", big), "section 2 (values): value 3 is not below r");
        contains(badWitness("cut.wtns", Arrays.copyOf(w, w.length - 10)), "section 2 (values): truncated");

        Path key = set(Curve.BN254, "multi_main").resolve("circuit.zkey");
        try (ProvingKey k = ProvingKey.read(key);
                Witness other = Witness.read(set(Curve.BN254, "chain_main").resolve("witness.wtns"));
                Witness bls = Witness.read(set(Curve.BLS12_381, "multi_main").resolve("witness.wtns"))) {
            FormatException e = assertThrows(FormatException.class, () -> new Groth16Prover().prove(k, other));
            contains(e, "section 2 (values): the witness has " + other.size() + " values but the key " + key + " needs " + k.nVars());
            e = assertThrows(FormatException.class, () -> new Groth16Prover().prove(k, bls));
            contains(e, "section 1 (header): the witness is over bls12-381's field but the key " + key + " is for bn254");
        }
    }

    @Test
    void theCommandLineExitsNonZeroAndSaysWhy() throws IOException {
        Path dir = set(Curve.BLS12_381, "poseidon_main");
        Path proof = tmp.resolve("out/proof.json"), pub = tmp.resolve("out/public.json");
        Cli.Result ok = Cli.run("prove", dir.resolve("circuit.zkey").toString(), dir.resolve("witness.wtns").toString(), proof.toString(),
                pub.toString());
        assertEquals(0, ok.status(), ok.err());
        Node.Result v = Node.snarkjs("groth16", "verify", dir.resolve("verification_key.json").toString(), pub.toString(), proof.toString());
        assertTrue(v.out().contains("OK!"), v.out());

        Cli.Result wrong = Cli.run("prove", dir.resolve("witness.wtns").toString(), dir.resolve("witness.wtns").toString(), proof.toString(),
                pub.toString());
        assertEquals(1, wrong.status());
        assertTrue(wrong.err().contains("wrong magic: expected 'zkey', found 'wtns'"), wrong.err());

        Cli.Result none = Cli.run("prove", tmp.resolve("nope.zkey").toString(), dir.resolve("witness.wtns").toString(), proof.toString(),
                pub.toString());
        assertEquals(1, none.status());
        assertTrue(none.err().contains("nope.zkey: no such file"), none.err());

        Cli.Result mismatch = Cli.run("prove", dir.resolve("circuit.zkey").toString(),
                set(Curve.BN254, "poseidon_main").resolve("witness.wtns").toString(), proof.toString(), pub.toString());
        assertEquals(1, mismatch.status());
        assertTrue(mismatch.err().contains("is for bls12-381"), mismatch.err());

        assertEquals(2, Cli.run("prove", "only-one-argument").status());
    }

    /**
     * The key store reads each version of a file once, and a changed file gets a new key while the
     * leases on the old one keep using it: the old key closes only when its last lease ends.
     */
    @Test
    void theKeyStoreReadsEachVersionOnceAndClosesOnlyUnleasedKeys() throws IOException {
        Path src = set(Curve.BN254, "chain_main").resolve("circuit.zkey");
        Path copy = tmp.resolve("cached.zkey");
        Files.copy(src, copy);
        try (KeyStore store = new KeyStore(Long.MAX_VALUE);
                Witness w = Witness.read(set(Curve.BN254, "chain_main").resolve("witness.wtns"))) {
            KeyStore.Lease l1 = store.acquire(copy);
            KeyStore.Lease l2 = store.acquire(tmp.resolve("./cached.zkey"));
            ProvingKey old = l1.key();
            assertTrue(old == l2.key(), "the same parsed key");
            assertEquals(1, store.loads());
            new Groth16Prover().prove(old, w);
            Files.setLastModifiedTime(copy, FileTime.fromMillis(Files.getLastModifiedTime(copy).toMillis() + 5000));
            KeyStore.Lease l3 = store.acquire(copy);
            assertTrue(l3.key() != old, "a changed file is read again");
            assertEquals(2, store.loads());
            assertEquals(2, store.resident(), "the old version stays while it is leased");
            new Groth16Prover().prove(old, w); // another holder of the old key is not cut off
            l1.close();
            l1.close(); // a second close does nothing
            new Groth16Prover().prove(old, w);
            l2.close();
            assertThrows(IllegalStateException.class, () -> new Groth16Prover().prove(old, w), "closed with its last lease");
            assertThrows(IllegalStateException.class, l1::key, "a closed lease hands out nothing");
            assertEquals(1, store.resident());
            new Groth16Prover().prove(l3.key(), w);
            l3.close();
            assertEquals(1, store.resident(), "an idle key stays for the next job");
        }
    }


}
