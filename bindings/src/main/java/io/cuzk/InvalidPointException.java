package io.cuzk;

/**
 * A point failed a check: a coordinate not below p (or non-zero padding), off the curve, or outside
 * the prime-order subgroup. {@link #index()} is the lowest failing position in the batch.
 */
public final class InvalidPointException extends CuzkException {
    private static final long serialVersionUID = 1L;

    private final long index;

    public InvalidPointException(Status status, long index, String message, String nativeMessage) {
        super(status, message, nativeMessage);
        this.index = index;
    }

    /** Position of the first failing point in its batch. */
    public long index() {
        return index;
    }

    /** Why it failed, in words. */
    public String reason() {
        return reason(status());
    }

    /** The reason a point check fails with the given status, in words. */
    public static String reason(Status s) {
        return switch (s) {
            case NOT_CANONICAL -> "a coordinate is not below the field modulus (or its padding is not zero)";
            case NOT_ON_CURVE -> "the point is not on the curve";
            case NOT_IN_SUBGROUP -> "the point is not in the prime-order subgroup";
            default -> s.nativeName();
        };
    }
}
