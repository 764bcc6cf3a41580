package io.cuzk;

/** External encodings of points and scalars understood by {@link Codec}. */
public enum Encoding {
    /**
     * The native layout, which is also snarkjs's: little-endian Fp elements in Montgomery form,
     * x then y (G2: x.c0, x.c1, y.c0, y.c1), infinity as zeros; scalars 32-byte little-endian.
     */
    NATIVE(0, 0),
    /** EIP-2537 (BLS12-381): 64-byte big-endian Fp (16 zero bytes, then 48), G2 as x.c0|x.c1|y.c0|y.c1, zeros for infinity; 32-byte big-endian scalars. */
    EIP2537(1, 64),
    /** EIP-196/197 (BN254): 32-byte big-endian Fp, G2 as x.c1|x.c0|y.c1|y.c0 (imaginary part first), zeros for infinity; 32-byte big-endian scalars. */
    EIP196(2, 32);

    private final int id;
    private final int fpBytes;

    Encoding(int id, int fpBytes) {
        this.id = id;
        this.fpBytes = fpBytes;
    }

    /** The native ABI's {@code enum cuzk_encoding} value. */
    public int id() {
        return id;
    }

    /** Whether the encoding is defined for the curve. */
    public boolean supports(Curve curve) {
        return switch (this) {
            case NATIVE -> true;
            case EIP2537 -> curve == Curve.BLS12_381;
            case EIP196 -> curve == Curve.BN254;
        };
    }

    /** Bytes of one encoded point. */
    public int pointBytes(Curve curve, Group group) {
        int fp = this == NATIVE ? curve.fpBytes() : fpBytes;
        return 2 * group.degree() * fp;
    }

    /** Bytes of one encoded scalar: 32. */
    public int scalarBytes() {
        return Curve.SCALAR_BYTES;
    }

    /** The Ethereum encoding of the curve: EIP-2537 for BLS12-381, EIP-196/197 for BN254. */
    public static Encoding ethereum(Curve curve) {
        return curve == Curve.BLS12_381 ? EIP2537 : EIP196;
    }
}
