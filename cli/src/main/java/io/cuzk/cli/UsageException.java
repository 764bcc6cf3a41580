package io.cuzk.cli;

/** The command line itself is wrong: an unknown command or option, a missing or malformed value. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
