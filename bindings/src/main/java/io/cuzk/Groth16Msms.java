package io.cuzk;

/** The results of the five MSMs of a Groth16 proof: A·w, B1·w, B2·w (G2), C·w[nPublic+1..] and H·h. */
public record Groth16Msms(Point a, Point b1, Point b2, Point c, Point h) {}
