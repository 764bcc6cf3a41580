package io.cuzk;

import java.math.BigInteger;
import java.util.Locale;
import org.apache.commons.lang3.Validate;

/** The pairing-friendly curves the kernels support. */
public enum Curve {
    /** BN254 (alt_bn128), the curve of circom, snarkjs ("bn128") and Ethereum's EIP-196/197. */
    BN254(0, "bn254", "bn128", 32,
            new BigInteger("21888242871839275222246405745257275088696311157297823662689037894645226208583"),
            new BigInteger("21888242871839275222246405745257275088548364400416034343698204186575808495617"), 28),
    /** BLS12-381, the curve of Filecoin and Ethereum's EIP-2537. */
    BLS12_381(1, "bls12-381", "bls12381", 48,
            new BigInteger("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16),
            new BigInteger("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16), 32);

    /** Bytes of a scalar (an Fr element) in every layout: 32 for both curves. */
    public static final int SCALAR_BYTES = 32;

    private final int id;
    private final String cliName;
    private final String snarkjsName;
    private final int fpBytes;
    private final BigInteger p;
    private final BigInteger r;
    private final int twoAdicity;

    Curve(int id, String cliName, String snarkjsName, int fpBytes, BigInteger p, BigInteger r, int twoAdicity) {
        this.id = id;
        this.cliName = cliName;
        this.snarkjsName = snarkjsName;
        this.fpBytes = fpBytes;
        this.p = p;
        this.r = r;
        this.twoAdicity = twoAdicity;
    }

    /** The native ABI's {@code enum cuzk_curve} value. */
    public int id() {
        return id;
    }

    /** The name used on the command line: {@code bn254} or {@code bls12-381}. */
    public String cliName() {
        return cliName;
    }

    /** The name snarkjs writes in proof.json: {@code bn128} or {@code bls12381}. */
    public String snarkjsName() {
        return snarkjsName;
    }

    /** Bytes of an Fp element in the native (and snarkjs) layout. */
    public int fpBytes() {
        return fpBytes;
    }

    /** Bytes of an affine point of a group in the native layout. */
    public int pointBytes(Group group) {
        return 2 * fpBytes * group.degree();
    }

    /** The base field's modulus p. */
    public BigInteger p() {
        return p;
    }

    /** The order r of the groups and the modulus of the scalar field Fr. */
    public BigInteger r() {
        return r;
    }

    /** The largest k such that 2^k divides r - 1: the largest NTT domain is 2^k. */
    public int twoAdicity() {
        return twoAdicity;
    }

    /** Montgomery radix of Fp: 2^(8 * fpBytes). */
    public BigInteger fpRadix() {
        return BigInteger.ONE.shiftLeft(8 * fpBytes);
    }

    /** Montgomery radix of Fr: 2^256. */
    public BigInteger frRadix() {
        return BigInteger.ONE.shiftLeft(8 * SCALAR_BYTES);
    }

    /**
     * beta, the cube root of one in Fp of the endomorphism phi(x, y) = (beta x, y) of G1 (the
     * curves have j = 0), chosen so that phi is multiplication by {@link #g1Lambda()} on the
     * prime-order subgroup (on all of BN254's G1, whose cofactor is one).
     */
    public BigInteger g1Beta() {
        return this == BN254 ? BN254_BETA : BLS12_381_BETA;
    }

    /**
     * lambda, the cube root of one in Fr by which {@link Point#endomorphism()} multiplies G1's
     * points; the native library splits a scalar k as k1 + k2 lambda (GLV) with the same lambda,
     * so a scalar made as a + b lambda with a, b below 2^64 costs it a 64-bit double
     * multiplication.
     */
    public BigInteger g1Lambda() {
        return this == BN254 ? BN254_LAMBDA : BLS12_381_LAMBDA;
    }

    private static final BigInteger BN254_BETA = new BigInteger("59e26bcea0d48bacd4f263f1acdb5c4f5763473177fffffe", 16);
    private static final BigInteger BN254_LAMBDA = new BigInteger("4407920970296243842393367215006156084916469457145843978461");
    private static final BigInteger BLS12_381_BETA = new BigInteger(
            "1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac", 16);
    private static final BigInteger BLS12_381_LAMBDA = new BigInteger("ac45a4010001a40200000000ffffffff", 16); // x^2 - 1

    /** Parses a curve name: {@code bn254}, {@code bn128}, {@code alt_bn128}, {@code bls12-381}, {@code bls12381}, any case. */
    public static Curve parse(String name) {
        Validate.notBlank(name, "curve name");
        String n = name.trim().toLowerCase(Locale.ROOT).replace("_", "-");
        return switch (n) {
            case "bn254", "bn128", "alt-bn128", "bn-254" -> BN254;
            case "bls12-381", "bls12381", "bls-12-381" -> BLS12_381;
            default -> throw new IllegalArgumentException("unknown curve '" + name + "': expected bn254 or bls12-381");
        };
    }
}
