package io.cuzk.it;

import io.cuzk.Curve;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Groth16 test sets, made on first use with circom2 and snarkjs by tests/node/make_circuits.mjs
 * under target/circuits: three circuits (a multiplication chain, circomlib's Poseidon, one with
 * several public inputs and outputs) on both curves, and PLONK and FFLONK keys of one circuit. The
 * slow step, preparing the powers of tau, is cached in ~/.cache/cuzk-java/ptau (or where
 * -Dcuzk.ptau.cache says).
 */
final class Circuits {
    static final String[] NAMES = {"chain_main", "poseidon_main", "multi_main"};
    private static boolean made;

    private Circuits() {}

    static Path root() {
        return Path.of(System.getProperty("cuzk.circuits.dir", "target/circuits")).toAbsolutePath();
    }

    static Path circuitsSource() {
        return Path.of(System.getProperty("cuzk.repo.dir", "..")).resolve("tests/circuits").toAbsolutePath().normalize();
    }

    static Path ptauCache() {
        String p = System.getProperty("cuzk.ptau.cache");
        return p != null ? Path.of(p) : Path.of(System.getProperty("user.home"), ".cache", "cuzk-java", "ptau");
    }

    /** The folder of a circuit's test set, made if needed. */
    static synchronized Path dir(Curve curve, String name) {
        if (!made) {
            for (Curve c : Curve.values()) {
                Node.run("make_circuits.mjs", root().toString(), c.snarkjsName(), circuitsSource().toString(), ptauCache().toString(),
                        NAMES[0], NAMES[1]);
                Node.run("make_circuits.mjs", root().toString(), c.snarkjsName(), circuitsSource().toString(), ptauCache().toString(),
                        "--plonk", NAMES[2]);
            }
            made = true;
        }
        Path d = root().resolve(curve.snarkjsName()).resolve(name);
        if (!Files.isRegularFile(d.resolve("circuit.zkey"))) {
            throw new AssertionError("the test set " + d + " was not made");
        }
        return d;
    }
}
