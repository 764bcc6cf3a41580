package io.cuzk.engine;

import io.cuzk.CuzkException;

/** A partition needs more memory than the whole budget: it could never start. */
public final class BudgetExceededException extends CuzkException {
    private static final long serialVersionUID = 1L;

    public BudgetExceededException(String message) {
        super(null, message, null);
    }
}
