package io.cuzk.server;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Requires "authorization: Bearer TOKEN" on every call but the health service's. The comparison
 * is of SHA-256 digests with MessageDigest.isEqual: its time depends on neither the token's length
 * nor where a wrong one differs.
 */
final class TokenCheck implements ServerInterceptor {
    static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final String HEALTH = "grpc.health.v1.Health";

    private final byte[] expected;

    TokenCheck(String token) {
        this.expected = digest("Bearer " + token);
    }

    static byte[] digest(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        if (HEALTH.equals(call.getMethodDescriptor().getServiceName())) {
            return next.startCall(call, headers);
        }
        String given = headers.get(AUTHORIZATION);
        if (given == null || !MessageDigest.isEqual(expected, digest(given))) {
            call.close(Status.UNAUTHENTICATED.withDescription(given == null ? "this daemon needs a bearer token (authorization: Bearer ...)"
                    : "the bearer token is not this daemon's"), new Metadata());
            return new ServerCall.Listener<>() { };
        }
        return next.startCall(call, headers);
    }
}
