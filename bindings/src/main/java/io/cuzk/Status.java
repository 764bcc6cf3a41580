package io.cuzk;

/** The status codes of the native ABI ({@code enum cuzk_status} in {@code cuzk/cuzk.h}). */
public enum Status {
    OK(0, "CUZK_OK"),
    INVALID_ARGUMENT(1, "CUZK_ERR_INVALID_ARGUMENT"),
    UNSUPPORTED(2, "CUZK_ERR_UNSUPPORTED"),
    OUT_OF_MEMORY(3, "CUZK_ERR_OUT_OF_MEMORY"),
    NOT_CANONICAL(4, "CUZK_ERR_NOT_CANONICAL"),
    NOT_ON_CURVE(5, "CUZK_ERR_NOT_ON_CURVE"),
    NOT_IN_SUBGROUP(6, "CUZK_ERR_NOT_IN_SUBGROUP"),
    CUDA(7, "CUZK_ERR_CUDA"),
    NO_DEVICE(8, "CUZK_ERR_NO_DEVICE"),
    INTERNAL(9, "CUZK_ERR_INTERNAL");

    private final int code;
    private final String nativeName;

    Status(int code, String nativeName) {
        this.code = code;
        this.nativeName = nativeName;
    }

    public int code() {
        return code;
    }

    /** The C enumerator's name. */
    public String nativeName() {
        return nativeName;
    }

    /** The status of a code; unknown codes map to {@link #INTERNAL}. */
    public static Status of(int code) {
        for (Status s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return INTERNAL;
    }
}
