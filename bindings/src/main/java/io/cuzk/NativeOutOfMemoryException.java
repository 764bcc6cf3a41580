package io.cuzk;

/** The native library could not allocate host memory. */
public final class NativeOutOfMemoryException extends CuzkException {
    private static final long serialVersionUID = 1L;

    public NativeOutOfMemoryException(String message, String nativeMessage) {
        super(Status.OUT_OF_MEMORY, message, nativeMessage);
    }
}
