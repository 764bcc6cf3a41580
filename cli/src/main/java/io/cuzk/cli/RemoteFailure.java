package io.cuzk.cli;

/** A daemon's refusal or failure, as the CLI reports it: one line and the exit status it maps to. */
final class RemoteFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int status;

    RemoteFailure(String message, int status) {
        super(message);
        this.status = status;
    }
}
