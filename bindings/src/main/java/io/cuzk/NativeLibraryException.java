package io.cuzk;

/** The native library could not be found or loaded; the message says what was missing and where. */
public final class NativeLibraryException extends CuzkException {
    private static final long serialVersionUID = 1L;

    public NativeLibraryException(String message) {
        super(null, message, null);
    }

    public NativeLibraryException(String message, Throwable cause) {
        super(null, message, null);
        initCause(cause);
    }
}
