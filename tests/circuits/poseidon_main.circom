pragma circom 2.0.0;
include "circomlib/circuits/poseidon.circom";

// The Poseidon hash of two private inputs, with the digest as the only public signal.
template PoseidonHash() {
    signal input x;
    signal input y;
    signal output digest;
    component h = Poseidon(2);
    h.inputs[0] <== x;
    h.inputs[1] <== y;
    digest <== h.out;
}

component main = PoseidonHash();
