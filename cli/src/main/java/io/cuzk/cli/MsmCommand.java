package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import java.util.HexFormat;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code cuzk msm}: the multi-scalar multiplication of concatenated (point, scalar) pairs read as
 * hex on stdin ({@link EncodedMsm}): every point must be canonical, on the curve and in the
 * subgroup, or the command names the first bad pair and fails.
 */
final class MsmCommand implements CliCommand {
    enum EncodingName {
        ETHEREUM, NATIVE
    }

    @Override
    public CommandSpec spec() {
        CommandSpec spec = Specs.command("msm", "Reads concatenated (point, scalar) pairs as hex on stdin and prints the encoded sum as "
                + "hex. ethereum: EIP-2537 for bls12-381 (128-byte G1, 256-byte G2), EIP-196/197 for bn254 (64-byte G1, 128-byte "
                + "G2); scalars are 32-byte big-endian. native: snarkjs's little-endian Montgomery layout, 32-byte little-endian "
                + "scalars. Every point is checked (canonical, on the curve, in the subgroup); the first bad pair is named.");
        spec.addOption(Specs.converted("--curve", "bn254|bls12-381", Curve.class, new Converters.CurveConverter(), null, "the curve"));
        spec.addOption(Specs.converted("--group", "g1|g2", Group.class, new Converters.GroupConverter(), null, "the group"));
        spec.addOption(Specs.option("--encoding", "ethereum|native", EncodingName.class, "ethereum", "how points and scalars are encoded"));
        spec.addOption(Specs.option("--threads", "N", int.class, "0", "CPU threads, 0 = all"));
        return spec;
    }

    @Override
    public int run(Main root, ParseResult parsed) {
        int threads = Specs.intValue(parsed, "--threads", 0, 4096);
        Curve curve = Specs.value(parsed, "--curve");
        Group group = Specs.value(parsed, "--group");
        EncodingName encoding = Specs.value(parsed, "--encoding");
        Encoding e = encoding == EncodingName.NATIVE ? Encoding.NATIVE : Encoding.ethereum(curve);
        byte[] input = EncodedMsm.readHex(root.in);
        root.out.println(HexFormat.of().formatHex(EncodedMsm.sum(curve, group, e, input, Backend.cpu(threads))));
        return Main.OK;
    }
}
