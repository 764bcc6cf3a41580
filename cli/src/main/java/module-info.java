/**
 * The cuzk command (bin/cuzk). Exported for Main.run and EncodedMsm, which the tests check against
 * published vectors.
 */
module io.cuzk.cli {
    requires transitive io.cuzk.bindings;
    requires io.cuzk.engine;
    requires info.picocli;
    requires com.fasterxml.jackson.databind;
    requires jdk.jfr;

    exports io.cuzk.cli;
}
