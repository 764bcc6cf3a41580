package io.cuzk;

/**
 * A failure reported by the cuzk native library, or found by the Java layer before calling it.
 * When it comes from native code, {@link #status()} is the native status and
 * {@link #nativeMessage()} the library's own message.
 */
public class CuzkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Status status;
    private final String nativeMessage;

    public CuzkException(Status status, String message, String nativeMessage) {
        super(message);
        this.status = status;
        this.nativeMessage = nativeMessage;
    }

    /** The native status, or null when the error was found in Java. */
    public Status status() {
        return status;
    }

    /** The native status's C name, such as {@code CUZK_ERR_NOT_ON_CURVE}, or null. */
    public String nativeName() {
        return status == null ? null : status.nativeName();
    }

    /** The native library's message, or null. */
    public String nativeMessage() {
        return nativeMessage;
    }
}
