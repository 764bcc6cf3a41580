package io.cuzk;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** NTTs against a naive DFT and polynomial evaluation in BigInteger, and round trips. */
class NttTest {
    static final BigInteger FIVE = BigInteger.valueOf(5);

    /** The primitive 2^k-th root of unity the library uses: 5^((r-1)/2^k), as in snarkjs. */
    static BigInteger root(Curve c, int k) {
        return FIVE.modPow(c.r().subtract(BigInteger.ONE).shiftRight(k), c.r());
    }

    static BigInteger[] random(Curve c, int n, long seed) {
        Random rnd = new Random(seed);
        BigInteger[] v = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            v[i] = new BigInteger(300, rnd).mod(c.r());
        }
        return v;
    }

    static ScalarVector load(Arena a, Curve c, BigInteger[] v) {
        ScalarVector s = ScalarVector.allocate(a, c, v.length, ScalarForm.MONTGOMERY);
        for (int i = 0; i < v.length; i++) {
            s.set(i, v[i]);
        }
        return s;
    }

    static BigInteger[] read(ScalarVector s) {
        BigInteger[] v = new BigInteger[(int) s.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = s.get(i);
        }
        return v;
    }

    /** sum_j a[j] x^j */
    static BigInteger eval(BigInteger[] a, BigInteger x, BigInteger r) {
        BigInteger acc = BigInteger.ZERO;
        for (int j = a.length - 1; j >= 0; j--) {
            acc = acc.multiply(x).add(a[j]).mod(r);
        }
        return acc;
    }

    @ParameterizedTest
    @EnumSource(Curve.class)
    void forwardMatchesNaiveDftAtSmallSizes(Curve c) {
        for (int k = 0; k <= 7; k++) {
            int n = 1 << k;
            BigInteger[] in = random(c, n, 100 + k);
            BigInteger w = root(c, k);
            try (Arena a = Arena.ofConfined()) {
                ScalarVector v = load(a, c, in);
                Backend.cpu().ntt(v, NttKind.FORWARD);
                BigInteger[] out = read(v);
                for (int i = 0; i < n; i++) {
                    assertEquals(eval(in, w.modPow(BigInteger.valueOf(i), c.r()), c.r()), out[i], "2^" + k + " index " + i);
                }
                Backend.cpu(1).ntt(v, NttKind.INVERSE);
                assertEquals(List.of(in), List.of(read(v)), "inverse of 2^" + k);
            }
        }
    }

    /** The coset transform evaluates the polynomial at g·w^i, for the default g = 5 and for another shift. */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void cosetForwardIsEvaluationOnTheCoset(Curve c) {
        int k = 9;
        int n = 1 << k;
        BigInteger[] in = random(c, n, 7);
        BigInteger w = root(c, k);
        for (BigInteger g : new BigInteger[] {null, root(c, k + 1), BigInteger.valueOf(123456789)}) {
            BigInteger shift = g == null ? FIVE : g;
            try (Arena a = Arena.ofConfined()) {
                ScalarVector v = load(a, c, in);
                Backend.cpu().ntt(v, NttKind.COSET_FORWARD, g);
                BigInteger[] out = read(v);
                for (int i : new int[] {0, 1, 2, 3, n / 2, n - 1, 77, 300}) {
                    BigInteger x = shift.multiply(w.modPow(BigInteger.valueOf(i), c.r())).mod(c.r());
                    assertEquals(eval(in, x, c.r()), out[i], "coset " + shift + " index " + i);
                }
                Backend.cpu().ntt(v, NttKind.COSET_INVERSE, g);
                assertEquals(List.of(in), List.of(read(v)), "coset inverse");
            }
        }
    }

    /** Round trips up to 2^22 (and 2^16 for every kind on 1 thread against all threads). */
    @Test
    void roundTripsUpTo2To22() {
        for (Curve c : Curve.values()) {
            for (int k : new int[] {10, 16, c == Curve.BN254 ? 22 : 20}) {
                int n = 1 << k;
                try (Arena a = Arena.ofConfined()) {
                    ScalarVector v = ScalarVector.allocate(a, c, n, ScalarForm.MONTGOMERY);
                    Random rnd = new Random(k);
                    for (int i = 0; i < n; i += 4099) {
                        v.set(i, new BigInteger(250, rnd));
                    }
                    v.set(n - 1, c.r().subtract(BigInteger.ONE));
                    byte[] before = v.segment().toArray(JAVA_BYTE);
                    Backend.cpu().ntt(v, NttKind.FORWARD);
                    Backend.cpu().ntt(v, NttKind.INVERSE);
                    assertArrayEquals(before, v.segment().toArray(JAVA_BYTE), c + " 2^" + k);
                }
            }
        }
    }

    @Test
    void threadCountsAgree() {
        Curve c = Curve.BLS12_381;
        BigInteger[] in = random(c, 1 << 14, 3);
        try (Arena a = Arena.ofConfined()) {
            for (NttKind kind : NttKind.values()) {
                ScalarVector one = load(a, c, in);
                ScalarVector all = load(a, c, in);
                Backend.cpu(1).ntt(one, kind);
                Backend.cpu(0).ntt(all, kind);
                assertArrayEquals(one.segment().toArray(JAVA_BYTE), all.segment().toArray(JAVA_BYTE), kind.toString());
            }
        }
    }

    @Test
    void rejectsBadSizesAndForms() {
        try (Arena a = Arena.ofConfined()) {
            ScalarVector three = ScalarVector.allocate(a, Curve.BN254, 3, ScalarForm.MONTGOMERY);
            assertThrows(IllegalArgumentException.class, () -> Backend.cpu().ntt(three, NttKind.FORWARD));
            ScalarVector canonical = ScalarVector.allocate(a, Curve.BN254, 4, ScalarForm.CANONICAL);
            assertThrows(IllegalArgumentException.class, () -> Backend.cpu().ntt(canonical, NttKind.FORWARD));
            ScalarVector four = ScalarVector.allocate(a, Curve.BN254, 4, ScalarForm.MONTGOMERY);
            BigInteger zeroModR = Curve.BN254.r();
            assertThrows(IllegalArgumentException.class, () -> Backend.cpu().ntt(four, NttKind.COSET_FORWARD, zeroModR));
        }
    }
}
