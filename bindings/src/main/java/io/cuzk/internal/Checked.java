package io.cuzk.internal;

import io.cuzk.CudaException;
import io.cuzk.CuzkException;
import io.cuzk.InvalidPointException;
import io.cuzk.NativeOutOfMemoryException;
import io.cuzk.NoDeviceException;
import io.cuzk.Status;
import io.cuzk.internal.ffi.cuzk_check_result;
import io.cuzk.internal.ffi.cuzk_h;
import java.lang.foreign.MemorySegment;

/**
 * The checked layer over the generated {@link cuzk_h}: every status other than {@code CUZK_OK} becomes a typed
 * {@link CuzkException} carrying the status's C name and the library's message for this thread.
 *
 * <p>The native message is per OS thread; it is read right after the failing call, with no
 * blocking operation in between, so a virtual thread cannot migrate between the two calls.
 */
public final class Checked {
    private Checked() {}

    /** Throws the exception for {@code status} unless it is {@code CUZK_OK}. */
    public static void check(int status, String call) {
        if (status != 0) {
            throw exception(status, call);
        }
    }

    /** The exception for a failed call: its type follows the status. */
    public static CuzkException exception(int code, String call) {
        return exception(code, call, lastError());
    }

    /** The exception for a failed call whose native message is given. */
    static CuzkException exception(int code, String call, String nativeMessage) {
        Status status = Status.of(code);
        String message = call + " failed with " + status.nativeName() + ": " + nativeMessage;
        return switch (status) {
            case OUT_OF_MEMORY -> new NativeOutOfMemoryException(message, nativeMessage);
            case NO_DEVICE -> new NoDeviceException(message, nativeMessage);
            case CUDA -> new CudaException(message, nativeMessage);
            default -> new CuzkException(status, message, nativeMessage);
        };
    }

    /**
     * For calls that check points: a failing check becomes an {@link InvalidPointException} with the
     * lowest failing index from {@code result} (a {@code cuzk_check_result}); what names the items,
     * such as "pair".
     */
    public static void checkPoints(int code, MemorySegment result, String call, String what) {
        if (code == 0) {
            return;
        }
        Status status = Status.of(code);
        if (status == Status.NOT_CANONICAL || status == Status.NOT_ON_CURVE || status == Status.NOT_IN_SUBGROUP) {
            String nativeMessage = lastError();
            long index = cuzk_check_result.index(result);
            throw new InvalidPointException(status, index, what + " " + index + ": " + InvalidPointException.reason(status) + " ("
                    + status.nativeName() + ")", nativeMessage);
        }
        throw exception(code, call);
    }

    /** The calling thread's last native error message. */
    public static String lastError() {
        MemorySegment p = CriticalCalls.cuzk_last_error();
        return p.equals(MemorySegment.NULL) ? "" : p.getString(0);
    }
}
