package io.cuzk.witness;

/**
 * A witness that cannot be calculated, with one line saying why: input that does not fit the
 * circuit (a signal it does not have, too few or too many values, a value that is no integer), or
 * the circuit's own failure (a failed assertion, with the template and line circom names).
 */
public final class WitnessException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public WitnessException(String message) {
        super(message);
    }

    public WitnessException(String message, Throwable cause) {
        super(message, cause);
    }
}
