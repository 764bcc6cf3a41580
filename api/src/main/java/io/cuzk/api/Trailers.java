package io.cuzk.api;

import io.grpc.Metadata;

/**
 * The trailers a cuzk daemon adds to some of its answers, beside the status: part of its API, read
 * by {@link CuzkClient} and set by the daemon (one definition for both sides).
 */
public final class Trailers {
    private Trailers() {}

    /**
     * On a RESOURCE_EXHAUSTED: the daemon's own passing limit refused the job (its queue full, too
     * many witness bytes arriving), so another daemon, or this one a moment later, may take it;
     * {@link CuzkClient#run} places it again. The fixed limits (a job over the witness or queue
     * limit, over the memory budget) and gRPC's own RESOURCE_EXHAUSTED have no such trailer.
     */
    public static final Metadata.Key<String> PLACE_ELSEWHERE = Metadata.Key.of("cuzk-place-elsewhere", Metadata.ASCII_STRING_MARSHALLER);

    /** On a Prove that ended ABORTED (its job failed) or CANCELLED (its job was cancelled): the job's id. */
    public static final Metadata.Key<String> JOB_ID = Metadata.Key.of("cuzk-job-id", Metadata.ASCII_STRING_MARSHALLER);

    /** Beside {@link #JOB_ID}: the job's kind of failure, a FailureKind's name, as Run's and Await's FAILED event carries it. */
    public static final Metadata.Key<String> FAILURE_KIND = Metadata.Key.of("cuzk-failure-kind", Metadata.ASCII_STRING_MARSHALLER);
}
