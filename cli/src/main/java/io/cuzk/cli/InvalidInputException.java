package io.cuzk.cli;

/** The data a command read is wrong: bad hex, a wrong length. */
final class InvalidInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InvalidInputException(String message) {
        super(message);
    }
}
