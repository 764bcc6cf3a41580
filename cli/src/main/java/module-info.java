/**
 * The cuzk command (bin/cuzk). Exported for Main.run and EncodedMsm, which the tests check against
 * published vectors. The daemon's commands read the daemon and its client (io.cuzk.server,
 * io.cuzk.api) and gRPC as automatic modules: gRPC's jars have no module descriptors; so does the
 * witness calculator (io.cuzk.witness), since Chicory's have none either.
 */
module io.cuzk.cli {
    requires transitive io.cuzk.bindings;
    requires io.cuzk.engine;
    requires io.cuzk.server;
    requires io.cuzk.api;
    requires io.cuzk.witness;
    requires io.grpc;
    requires com.google.protobuf;
    requires com.google.protobuf.util;
    requires info.picocli;
    requires com.fasterxml.jackson.databind;
    requires jdk.jfr;

    exports io.cuzk.cli;
}
