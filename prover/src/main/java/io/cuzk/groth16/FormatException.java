package io.cuzk.groth16;

import io.cuzk.CuzkException;

/**
 * A .zkey or .wtns file (or buffer) that cannot be used: wrong magic or version, a missing or
 * truncated section, an unsupported curve or protocol, or a witness that does not fit the key.
 * The message names the file, the section and what is wrong.
 */
public final class FormatException extends CuzkException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final String section;

    public FormatException(String file, String section, String problem) {
        super(null, file + (section == null ? "" : ": " + section) + ": " + problem, null);
        this.file = file;
        this.section = section;
    }

    /** The file (or buffer name) at fault. */
    public String file() {
        return file;
    }

    /** The section at fault, such as "section 5 (A points)", or null for the file as a whole. */
    public String section() {
        return section;
    }
}
