package io.cuzk.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The error object of --json outputs. A class of its own so that Main, which every command loads
 * first, does not refer to Jackson: verifying Main would load some 40 of its classes on every start.
 */
final class JsonErrors {
    private JsonErrors() {}

    /** {"error":{"status":..,"kind":..,"message":..}}: what --json prints on failure. */
    static String errorJson(int status, String message) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.set("error", errorNode(mapper, status, message));
        return root.toString();
    }

    static ObjectNode errorNode(ObjectMapper mapper, int status, String message) {
        ObjectNode e = mapper.createObjectNode();
        e.put("status", status);
        e.put("kind", switch (status) {
            case Main.BAD_INPUT -> "invalid input";
            case Main.USAGE -> "usage";
            default -> "environment or internal";
        });
        e.put("message", message);
        return e;
    }
}
