package io.cuzk;

/** A CUDA runtime call failed; the message names the call and the CUDA error. */
public final class CudaException extends CuzkException {
    private static final long serialVersionUID = 1L;

    public CudaException(String message, String nativeMessage) {
        super(Status.CUDA, message, nativeMessage);
    }
}
