/**
 * The FFM bindings of the native library and the typed API over them: curves, points, scalars and
 * their vectors, codecs, MSM and NTT, Groth16's H and a proof's kernels on every backend
 * ({@link io.cuzk.Backend}), and the CUDA runtime's devices, streams, events and buffers.
 * The native library travels inside this module (io/cuzk/native/), and only this module calls
 * restricted FFM methods on it: run with {@code --enable-native-access=io.cuzk.bindings} (or
 * ALL-UNNAMED on the class path). The generated bindings and the loader are not exported.
 */
module io.cuzk.bindings {
    requires org.apache.commons.lang3;

    exports io.cuzk;
    exports io.cuzk.cuda;
    // the trusted-folder check, for the witness module's cache of compiled circuits
    exports io.cuzk.internal to io.cuzk.witness;
}
