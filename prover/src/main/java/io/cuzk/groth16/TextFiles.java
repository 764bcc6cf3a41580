package io.cuzk.groth16;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The JSON files a user names (verification_key.json, proof.json, public.json, input.json), read
 * as UTF-8 text with failures that name the file: a folder, a FIFO or a device is refused as
 * {@link InputFile} refuses it, before it is opened (the JDK's own message for a folder is only
 * "Is a directory", and a FIFO would block the read forever), and bytes that are not UTF-8 (a
 * .zkey or a .wasm given in the wrong place) are a {@link FormatException} (the JDK's says only
 * "Input length = 1").
 */
public final class TextFiles {
    private TextFiles() {}

    /** The file's text; see the class comment for its failures. */
    public static String read(Path file) throws IOException {
        byte[] bytes = bytes(file);
        try {
            return utf8(bytes);
        } catch (CharacterCodingException e) {
            throw new FormatException(file.toString(), null, "not JSON: not UTF-8 text (a binary file?)");
        }
    }

    /**
     * A whole file's bytes (a circuit.wasm, or a file read as text), refused and named as the class
     * comment says: a folder, a FIFO or a device before it is opened.
     */
    public static byte[] bytes(Path file) throws IOException {
        InputFile.requireRegular(file); // a folder named; a FIFO refused instead of blocking the read forever
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw InputFile.reasoned(e);
        }
    }

    /** Bytes as UTF-8 text, strictly: malformed bytes are refused, never replaced. */
    public static String utf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    }
}
