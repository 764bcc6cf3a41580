package io.cuzk;

/** Shared by the GPU tests: why they cannot run here, printed once per class and used to skip. */
final class CudaTests {
    private CudaTests() {}

    /** Null where a CUDA device is usable; otherwise the reason, also printed to stderr. */
    static String noDeviceReason(String what) {
        String reason = CudaBackend.unavailableReason();
        if (reason == null) {
            return null;
        }
        String line = "no CUDA device, " + what + " skipped: " + reason;
        System.err.println(line);
        return line;
    }
}
