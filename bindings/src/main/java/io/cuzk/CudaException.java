package io.cuzk;

/**
 * A CUDA runtime call failed. For calls made through the FFM bindings of libcudart,
 * {@link #call()}, {@link #cudaError()} and {@link #cudaErrorName()} say which call failed and how;
 * for failures inside the native kernels library the message carries the same facts.
 */
public final class CudaException extends CuzkException {
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int cudaError;
    private final String cudaErrorName;

    /** A failure reported by the cuzk native library (status CUZK_ERR_CUDA). */
    public CudaException(String message, String nativeMessage) {
        super(Status.CUDA, message, nativeMessage);
        this.call = null;
        this.cudaError = -1;
        this.cudaErrorName = null;
    }

    /** A libcudart call that returned an error code. */
    public CudaException(String call, int cudaError, String cudaErrorName, String cudaErrorString) {
        super(Status.CUDA, call + " failed: " + cudaErrorName + " (" + cudaError + "): " + cudaErrorString, cudaErrorString);
        this.call = call;
        this.cudaError = cudaError;
        this.cudaErrorName = cudaErrorName;
    }

    /** The CUDA call that failed, such as {@code cudaMallocAsync}, or null. */
    public String call() {
        return call;
    }

    /** The cudaError_t value, or -1 when not known. */
    public int cudaError() {
        return cudaError;
    }

    /** The error's name, such as {@code cudaErrorInsufficientDriver}, or null. */
    public String cudaErrorName() {
        return cudaErrorName;
    }
}
