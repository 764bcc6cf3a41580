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
