package io.cuzk.internal;

import io.cuzk.CuzkException;
import io.cuzk.internal.ffi.cuzk_cuda_h;
import java.lang.foreign.MemorySegment;

/** {@link Checked} for libcuzk_cuda: its statuses, with the message of its own per-thread store. */
public final class CudaChecked {
    private CudaChecked() {}

    public static void check(int status, String call) {
        if (status != 0) {
            MemorySegment p = cuzk_cuda_h.cuzk_cuda_last_error();
            String message = p.equals(MemorySegment.NULL) ? "" : p.getString(0);
            throw Checked.exception(status, call, message);
        }
    }

    /** The message of the calling thread's last libcuzk_cuda failure. */
    public static String lastError() {
        MemorySegment p = cuzk_cuda_h.cuzk_cuda_last_error();
        return p.equals(MemorySegment.NULL) ? "" : p.getString(0);
    }

    static CuzkException exception(int status, String call) {
        return Checked.exception(status, call, lastError());
    }
}
