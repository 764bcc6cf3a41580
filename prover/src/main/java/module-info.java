/** Groth16 proofs for snarkjs keys and witnesses, on any backend of io.cuzk.bindings. */
module io.cuzk.prover {
    requires transitive io.cuzk.bindings;
    requires org.apache.commons.lang3;

    exports io.cuzk.groth16;
}
