pragma circom 2.0.0;

// The shapes of input.json a witness calculator must read as snarkjs reads them: a scalar, a
// two-dimensional array, an array, and an assertion (no constraint) on the inputs; and log() lines
// (strings, values, a negative one, an empty line), which snarkjs prints.
template Inputs() {
    signal input a;
    signal input m[2][3];
    signal input v[2];
    signal output out;
    assert(v[0] != 1000);
    signal t[2];
    t[0] <== m[0][0] * m[1][2] + a;
    t[1] <== v[0] * v[1];
    out <== t[0] * t[1];
    log("inputs", a, m[1][2], "v", v[1]);
    log(-1);
    log();
    log("out", out);
}

component main {public [a]} = Inputs();
