pragma circom 2.0.0;

// Several public inputs and outputs: sums and products of public inputs with private ones.
template Multi() {
    signal input p[3];
    signal input s[3];
    signal output sum;
    signal output prod;
    signal t[3];
    for (var i = 0; i < 3; i++) {
        t[i] <== p[i] * s[i];
    }
    sum <== t[0] + t[1] + t[2];
    signal u <== t[0] * t[1];
    prod <== u * t[2];
}

component main {public [p]} = Multi();
