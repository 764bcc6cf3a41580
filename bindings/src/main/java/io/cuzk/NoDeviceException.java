package io.cuzk;

/** No usable CUDA device: the library was built without CUDA, or the driver is missing or too old. */
public final class NoDeviceException extends CuzkException {
    private static final long serialVersionUID = 1L;

    public NoDeviceException(String message, String nativeMessage) {
        super(Status.NO_DEVICE, message, nativeMessage);
    }
}
