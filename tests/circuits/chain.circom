pragma circom 2.0.0;

// A chain of n multiplications: x[i+1] = x[i] * b + i. Public input a, private input b, output x[n].
template Chain(n) {
    signal input a;
    signal input b;
    signal output out;
    signal x[n + 1];
    x[0] <== a;
    for (var i = 0; i < n; i++) {
        x[i + 1] <== x[i] * b + i;
    }
    out <== x[n];
}
