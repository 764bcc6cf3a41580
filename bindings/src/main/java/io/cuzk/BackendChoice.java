package io.cuzk;

/** What {@link Backend#auto()} chose and, when it fell back to the CPU, why. */
public record BackendChoice(Backend backend, String fallbackReason) {
    private static final System.Logger LOG = System.getLogger("io.cuzk");

    /** The CUDA backend on device 0 where possible, else the CPU backend with the reason, logged once here. */
    public static BackendChoice auto() {
        String reason = CudaBackend.unavailableReason();
        if (reason == null) {
            try {
                return new BackendChoice(CudaBackend.open(0), null);
            } catch (CuzkException e) {
                reason = e.getMessage();
            }
        }
        LOG.log(System.Logger.Level.INFO, "cuzk: using the CPU backend: " + reason);
        return new BackendChoice(Backend.cpu(), reason);
    }
}
