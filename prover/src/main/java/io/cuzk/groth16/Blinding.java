package io.cuzk.groth16;

import io.cuzk.Curve;
import java.math.BigInteger;
import java.security.SecureRandom;
import org.apache.commons.lang3.Validate;

/**
 * Where the blinding factors r and s of a proof come from. {@link #secure()} draws them
 * uniformly from Fr with {@link SecureRandom}, as every real proof must. {@link #fixed} exists for
 * tests, to compare a proof bit for bit with snarkjs's for the same r and s; a proof made with
 * known r and s reveals the witness.
 */
public interface Blinding {
    /** r, then s, each in [0, order). */
    BigInteger[] draw(Curve curve);

    /** Uniform r and s from a SecureRandom: the operating system's generator ({@link SystemRandom}). */
    static Blinding secure() {
        SecureRandom rng = SystemRandom.create();
        return curve -> {
            BigInteger r = new BigInteger(curve.r().bitLength() + 128, rng).mod(curve.r());
            BigInteger s = new BigInteger(curve.r().bitLength() + 128, rng).mod(curve.r());
            return new BigInteger[] {r, s};
        };
    }

    /** Always the given r and s: for tests only. */
    static Blinding fixed(BigInteger r, BigInteger s) {
        Validate.isTrue(r.signum() >= 0 && s.signum() >= 0, "r and s must not be negative");
        return curve -> new BigInteger[] {r.mod(curve.r()), s.mod(curve.r())};
    }
}
