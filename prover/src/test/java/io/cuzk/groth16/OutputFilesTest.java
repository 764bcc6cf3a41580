package io.cuzk.groth16;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Outputs into folders that do not exist yet: made when the files are written, and not at all when a target cannot be written. */
class OutputFilesTest {
    @TempDir
    Path tmp;

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void foldersAreMadeOnlyWhenTheFilesAreWritten() throws IOException {
        Path proof = tmp.resolve("a/b/proof.json"), pub = tmp.resolve("c/public.json");
        OutputFiles.requireWritable(List.of(proof, pub));
        assertFalse(Files.exists(tmp.resolve("a")), "the check makes nothing");
        OutputFiles.writeTogether(List.of(proof, pub), List.of(text("p"), text("q")));
        assertArrayEquals(text("p"), Files.readAllBytes(proof));
        assertArrayEquals(text("q"), Files.readAllBytes(pub));
    }

    @Test
    void aWriteThatCannotSucceedMakesNoFolder() throws IOException {
        Files.writeString(tmp.resolve("file"), "x");
        Path first = tmp.resolve("new/deeper/proof.json"), second = tmp.resolve("file/public.json");
        FileSystemException e = assertThrows(FileSystemException.class,
                () -> OutputFiles.writeTogether(List.of(first, second), List.of(text("p"), text("q"))));
        assertTrue(e.getMessage().contains("is a file, not a folder"), e.getMessage());
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(tmp.resolve("file")), left.toList(), "only what was there before");
        }
        // a folder that existed before stays, and nothing is made under it
        Files.createDirectory(tmp.resolve("kept"));
        assertThrows(FileSystemException.class, () -> OutputFiles.writeTogether(List.of(tmp.resolve("kept/new/p.json"), second),
                List.of(text("p"), text("q"))));
        assertTrue(Files.isDirectory(tmp.resolve("kept")));
        assertFalse(Files.exists(tmp.resolve("kept/new")));
    }

    @Test
    void aLinkToNothingOnTheWayIsNamedByTheCheck() throws IOException {
        Path link = Files.createSymbolicLink(tmp.resolve("link"), tmp.resolve("nowhere/at/all"));
        FileSystemException e = assertThrows(FileSystemException.class,
                () -> OutputFiles.requireWritable(List.of(link.resolve("sub/proof.json"))));
        assertTrue(e.getMessage().contains(link + " is a link to " + tmp.resolve("nowhere/at/all") + ", which is not a folder"),
                e.getMessage());
        assertThrows(FileSystemException.class, () -> OutputFiles.writeTogether(List.of(link.resolve("proof.json")), List.of(text("p"))));
        assertFalse(Files.exists(tmp.resolve("nowhere")), "nothing made where the link points");
    }

    @Test
    void theCheckNamesAFileOnTheWay() throws IOException {
        Files.writeString(tmp.resolve("file"), "x");
        FileSystemException e = assertThrows(FileSystemException.class,
                () -> OutputFiles.requireWritable(List.of(tmp.resolve("file/sub/proof.json"))));
        assertTrue(e.getMessage().contains(tmp.resolve("file") + " is a file, not a folder"), e.getMessage());
    }
}
