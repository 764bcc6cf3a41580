package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Groth16's H ({@link Backend#groth16H}; one native call on the CPU) against its definition in BigInteger at
 * small sizes (interpolate a, b and c on the domain, evaluate on the coset by the root of twice the
 * order, h = a·b − c there) and against the same steps done by separate backend calls at larger ones.
 */
class Groth16HTest {
    /** A(X) from its values on the 2^k-th roots, by the naive inverse DFT. */
    static BigInteger[] interpolate(Curve c, BigInteger[] values, int k) {
        int n = values.length;
        BigInteger r = c.r();
        BigInteger wInv = NttTest.root(c, k).modInverse(r);
        BigInteger nInv = BigInteger.valueOf(n).modInverse(r);
        BigInteger[] coef = new BigInteger[n];
        for (int j = 0; j < n; j++) {
            BigInteger acc = BigInteger.ZERO;
            for (int i = 0; i < n; i++) {
                acc = acc.add(values[i].multiply(wInv.modPow(BigInteger.valueOf((long) i * j), r)));
            }
            coef[j] = acc.multiply(nInv).mod(r);
        }
        return coef;
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void matchesTheDefinitionAtSmallSizes(Curve c) {
        BigInteger r = c.r();
        for (int k = 0; k <= 5; k++) {
            int n = 1 << k;
            BigInteger[] a = NttTest.random(c, n, 10 + k), b = NttTest.random(c, n, 20 + k), cc = NttTest.random(c, n, 30 + k);
            BigInteger[] pa = interpolate(c, a, k), pb = interpolate(c, b, k), pc = interpolate(c, cc, k);
            BigInteger g = NttTest.root(c, k + 1), w = NttTest.root(c, k);
            try (Arena arena = Arena.ofConfined()) {
                ScalarVector va = NttTest.load(arena, c, a), vb = NttTest.load(arena, c, b), vc = NttTest.load(arena, c, cc);
                Backend.cpu(k % 2 == 0 ? 0 : 1).groth16H(va, vb, vc, ScalarForm.MONTGOMERY);
                BigInteger[] h = NttTest.read(va);
                for (int j = 0; j < n; j++) {
                    BigInteger x = g.multiply(w.modPow(BigInteger.valueOf(j), r)).mod(r);
                    BigInteger want = NttTest.eval(pa, x, r).multiply(NttTest.eval(pb, x, r)).subtract(NttTest.eval(pc, x, r)).mod(r);
                    assertEquals(want, h[j], c + " 2^" + k + " index " + j);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void equalsSeparateNttsAndOperations(Curve c) {
        // 2^14: beyond the 2^12 blocks the transforms run in cache, so that their stages across
        // blocks run too
        int k = 14, n = 1 << k;
        BigInteger[] a = NttTest.random(c, n, 1), b = NttTest.random(c, n, 2), cc = NttTest.random(c, n, 3);
        try (Arena arena = Arena.ofConfined()) {
            ScalarVector va = NttTest.load(arena, c, a), vb = NttTest.load(arena, c, b), vc = NttTest.load(arena, c, cc);
            Backend.cpu().prepareGroth16(c, k); // the tables made ahead must be the ones H uses
            Backend.cpu().groth16H(va, vb, vc, ScalarForm.MONTGOMERY);
            ScalarVector ea = NttTest.load(arena, c, a), eb = NttTest.load(arena, c, b), ec = NttTest.load(arena, c, cc);
            for (ScalarVector v : List.of(ea, eb, ec)) {
                Backend.cpu(1).ntt(v, NttKind.INVERSE);
                Backend.cpu(1).ntt(v, NttKind.COSET_FORWARD, NttTest.root(c, k + 1));
            }
            ScalarOps.multiply(ea, eb, ea);
            ScalarOps.subtract(ea, ec, ea);
            assertEquals(List.of(NttTest.read(ea)), List.of(NttTest.read(va)));
        }
    }

    /**
     * h left canonical (for the MSM) holds the values h left in Montgomery form holds, on the
     * scalar code's sizes and the IFMA lanes' (from 2^6, with stages across blocks at 2^14), on
     * every CPU path this machine has.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void canonicalOutputHoldsTheSameValues(Curve c) {
        for (CpuIsa isa : Cuzk.libraryInfo().availableCpuIsas()) {
            Cuzk.setCpuIsa(isa);
            try (Arena arena = Arena.ofConfined()) {
                for (int k : new int[] {0, 3, 6, 9, 14}) {
                    int n = 1 << k;
                    BigInteger[] a = NttTest.random(c, n, 40 + k), b = NttTest.random(c, n, 50 + k), cc = NttTest.random(c, n, 60 + k);
                    ScalarVector ma = NttTest.load(arena, c, a), mb = NttTest.load(arena, c, b), mc = NttTest.load(arena, c, cc);
                    ScalarVector ca = NttTest.load(arena, c, a), cb = NttTest.load(arena, c, b), ccc = NttTest.load(arena, c, cc);
                    ScalarVector montgomery = Backend.cpu().groth16H(ma, mb, mc, ScalarForm.MONTGOMERY);
                    ScalarVector canonical = Backend.cpu().groth16H(ca, cb, ccc, ScalarForm.CANONICAL);
                    assertSame(ma, montgomery, "Montgomery h is a itself");
                    assertEquals(ScalarForm.CANONICAL, canonical.form());
                    assertEquals(ca.segment().address(), canonical.segment().address(), "canonical h is left in a");
                    assertEquals(n, canonical.size());
                    assertEquals(List.of(NttTest.read(montgomery)), List.of(NttTest.read(canonical)), c + " " + isa + " 2^" + k);
                    for (int i = 0; i < n; i++) {
                        BigInteger raw = new BigInteger(1, reversed(canonical.segment().asSlice(32L * i, 32).toArray(ValueLayout.JAVA_BYTE)));
                        assertTrue(raw.compareTo(c.r()) < 0, "stored value " + i + " is below r");
                    }
                }
            } finally {
                Cuzk.setCpuIsa(CpuIsa.AUTO);
            }
        }
    }

    static byte[] reversed(byte[] le) {
        byte[] be = new byte[le.length];
        for (int i = 0; i < le.length; i++) {
            be[i] = le[le.length - 1 - i];
        }
        return be;
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void badArgumentsAreRefusedWithTheReason(Curve c) {
        try (Arena arena = Arena.ofConfined()) {
            ScalarVector a = ScalarVector.allocate(arena, c, 8, ScalarForm.MONTGOMERY);
            ScalarVector b = ScalarVector.allocate(arena, c, 8, ScalarForm.MONTGOMERY);
            ScalarVector d = ScalarVector.allocate(arena, c, 8, ScalarForm.MONTGOMERY);
            ScalarVector three = ScalarVector.allocate(arena, c, 3, ScalarForm.MONTGOMERY);
            ScalarVector canonical = ScalarVector.allocate(arena, c, 8, ScalarForm.CANONICAL);
            Curve other = c == Curve.BN254 ? Curve.BLS12_381 : Curve.BN254;
            ScalarVector otherCurve = ScalarVector.allocate(arena, other, 8, ScalarForm.MONTGOMERY);
            String[][] cases = {
                {"not a power of two", message(() -> Backend.cpu().groth16H(three, three, three, ScalarForm.MONTGOMERY))},
                {"same size", message(() -> Backend.cpu().groth16H(a, b, three, ScalarForm.MONTGOMERY))},
                {"Montgomery", message(() -> Backend.cpu().groth16H(a, canonical, d, ScalarForm.MONTGOMERY))},
                {"different curves", message(() -> Backend.cpu().groth16H(a, b, otherCurve, ScalarForm.MONTGOMERY))},
                {"distinct", message(() -> Backend.cpu().groth16H(a, a, d, ScalarForm.MONTGOMERY))},
                {"threads", message(() -> Backend.cpu(-1).groth16H(a, b, d, ScalarForm.MONTGOMERY))},
                {"no domain of 2^" + c.twoAdicity(), message(() -> Backend.cpu().prepareGroth16(c, c.twoAdicity()))},
            };
            for (String[] cs : cases) {
                assertTrue(cs[1].contains(cs[0]), cs[0] + ": " + cs[1]);
            }
        }
    }

    private static String message(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }
}
