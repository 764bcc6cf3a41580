package io.cuzk.groth16;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.commons.lang3.Validate;

/**
 * Files written together, all or none: each is written to a temporary file beside it, flushed
 * to disk, and only when every one is complete are they renamed over their targets. A failure
 * (a full disk, a folder that cannot be written, a target that is not a regular file) leaves no
 * target changed and no temporary file behind. A target that is a link is written where the link
 * points, as writing through it would. Folders a target goes into that do not exist yet are made
 * when the files are written, after the work and after every target's way has been checked: a
 * command that fails on its input, or on an output that cannot be written, makes no folder.
 *
 * <p>Failures are {@link FileSystemException}s whose file is the target and whose reason says
 * why in words ("permission denied", "No space left on device").
 */
public final class OutputFiles {
    private OutputFiles() {}

    /**
     * Throws a {@link FileSystemException} when an output is one of the inputs or another output
     * (the same path, or the same file through another name): writing it would destroy what it
     * was made from, or the other output.
     */
    public static void requireDistinct(List<Path> outputs, List<Path> inputs) throws IOException {
        for (int i = 0; i < outputs.size(); i++) {
            Path o = outputs.get(i);
            for (Path in : inputs) {
                if (same(o, in)) {
                    throw new FileSystemException(o.toString(), null, "is the input " + in + "; refusing to overwrite it");
                }
            }
            for (int j = 0; j < i; j++) {
                if (same(o, outputs.get(j))) {
                    throw new FileSystemException(o.toString(), null, "is also the output " + outputs.get(j)
                            + "; one would overwrite the other");
                }
            }
        }
    }

    private static boolean same(Path a, Path b) throws IOException {
        if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
            return true;
        }
        return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
    }

    /**
     * Checks, before any work is done for them, that the targets can be written: none is a folder,
     * a pipe or a device, and the folder each goes into, or the nearest one on its way that
     * exists (the rest are made when the files are written), is a folder and writable. (The write
     * itself can still fail, on a full disk for instance, and then changes nothing.) Makes nothing.
     */
    public static void requireWritable(List<Path> targets) throws IOException {
        for (Path t : targets) {
            requireFolder(t, destination(t));
        }
    }

    /**
     * The nearest folder on dest's way that exists (a link counts as existing, so that one
     * pointing nowhere is named here rather than failing the write after the work) must be a
     * folder, and writable.
     */
    private static void requireFolder(Path t, Path dest) throws IOException {
        Path dir = dest.toAbsolutePath().getParent();
        while (dir != null && !Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            dir = dir.getParent();
        }
        if (dir == null) {
            return;
        }
        if (!Files.isDirectory(dir)) {
            String what = Files.isSymbolicLink(dir) ? "a link to " + Files.readSymbolicLink(dir) + ", which is not a folder"
                    : "a file, not a folder";
            throw new FileSystemException(t.toString(), null, "cannot be written: " + dir + " is " + what + ": " + t
                    + " cannot go under it");
        }
        if (!Files.isWritable(dir)) {
            throw new FileSystemException(t.toString(), null, "cannot be written: permission denied (its folder " + dir
                    + " is not writable)");
        }
    }

    /**
     * Makes the folders the targets go into that do not exist yet, once every target has passed
     * requireFolder (a failure that can be foreseen makes none). Folders made stay when a later
     * step fails (a full disk): removing them could pull a folder from under another writer that
     * has just found it.
     */
    private static void makeFolders(List<Path> targets) throws IOException {
        for (Path t : targets) {
            requireFolder(t, t);
        }
        for (Path t : targets) {
            Path dir = t.toAbsolutePath().getParent();
            if (dir != null && !Files.isDirectory(dir)) {
                try {
                    Files.createDirectories(dir);
                } catch (FileAlreadyExistsException e) { // a file put on the way since the check
                    throw new FileSystemException(t.toString(), null, "cannot be written: " + e.getFile() + " is a file, not a folder: " + t
                            + " cannot go under it");
                } catch (IOException e) {
                    throw failure(t, e);
                }
            }
        }
    }

    /** Writes contents.get(i) to targets.get(i), all or none (see the class comment). */
    public static void writeTogether(List<Path> targets, List<byte[]> contents) throws IOException {
        Validate.isTrue(targets.size() == contents.size(), "one content per target");
        requireDistinct(targets, List.of());
        makeFolders(targets);
        List<Path> finals = new ArrayList<>();
        List<Path> temps = new ArrayList<>();
        try {
            for (int i = 0; i < targets.size(); i++) {
                Path target = targets.get(i);
                Path dest = destination(target);
                finals.add(dest);
                temps.add(writeTemporary(target, dest, contents.get(i)));
            }
            int renamed = 0;
            try {
                for (; renamed < finals.size(); renamed++) {
                    Files.move(temps.get(renamed), finals.get(renamed), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    temps.set(renamed, null);
                }
            } catch (IOException e) {
                // Renames in folders where temporary files were just written hardly fail; if one does,
                // the outputs already renamed go too, so that no output is left without its partner.
                for (int k = 0; k < renamed; k++) {
                    Files.deleteIfExists(finals.get(k));
                }
                throw failure(targets.get(renamed), e);
            }
        } finally {
            for (Path t : temps) {
                if (t != null) {
                    Files.deleteIfExists(t);
                }
            }
        }
    }

    /**
     * Where target's bytes go: target itself, or the file it links to. Refuses what is not a
     * regular file, and a file that exists and may not be written.
     */
    private static Path destination(Path target) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(target, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return target; // new (or a dangling link, replaced by the file)
        }
        if (a.isDirectory()) {
            throw new FileSystemException(target.toString(), null, "is a folder");
        }
        if (!a.isRegularFile()) {
            throw new FileSystemException(target.toString(), null, "is not a regular file (a pipe, a device or a socket): outputs are "
                    + "written to a temporary file and renamed over their target, which would replace it");
        }
        Path dest = Files.isSymbolicLink(target) ? target.toRealPath() : target;
        if (!Files.isWritable(dest)) {
            // renaming over it would replace a file its owner made read-only, as no other writer does
            // (root may write any file, so for root this holds as it does for snarkjs: it is written)
            throw new FileSystemException(target.toString(), null, Files.getFileStore(dest).isReadOnly()
                    ? "cannot be written: the file system is read-only"
                    : "cannot be written: permission denied (the file exists and is not writable)");
        }
        return dest;
    }

    /**
     * A new temporary file beside dest holding content, flushed to disk, with dest's permissions
     * where dest exists (else what the umask gives a new file, as for any other writer). Its name
     * is made here rather than by Files.createTempFile, whose SecureRandom costs a one-shot command
     * tens of milliseconds; CREATE_NEW keeps it from being anyone else's file.
     */
    private static Path writeTemporary(Path target, Path dest, byte[] content) throws IOException {
        Path dir = dest.toAbsolutePath().getParent();
        for (int attempt = 0;; attempt++) {
            // a random name (ProcessHandle's pid would cost a one-shot command some 25 ms of set-up)
            Path tmp = dir.resolve("." + dest.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
            FileChannel ch;
            try {
                ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                if (attempt < 16) {
                    continue;
                }
                throw failure(target, e);
            } catch (IOException e) {
                throw failure(target, e);
            }
            try {
                try (ch) {
                    ByteBuffer b = ByteBuffer.wrap(content);
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                    ch.force(true);
                }
                if (Files.exists(dest)) {
                    PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
                    if (view != null) {
                        view.setPermissions(Files.getPosixFilePermissions(dest));
                    }
                }
                return tmp;
            } catch (IOException e) {
                Files.deleteIfExists(tmp);
                throw failure(target, e);
            }
        }
    }

    /** The failure as a FileSystemException naming the target and the reason in words. */
    static FileSystemException failure(Path target, IOException e) {
        String reason;
        if (e instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (e instanceof NoSuchFileException) {
            Path dir = target.toAbsolutePath().getParent();
            // a folder that exists but takes no new files (/proc) says ENOENT too
            reason = dir != null && Files.isDirectory(dir) ? "its folder takes no new files" : "its folder does not exist";
        } else if (e instanceof FileSystemException fs && fs.getReason() != null) {
            reason = fs.getReason();
        } else {
            reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
        FileSystemException f = new FileSystemException(target.toString(), null, "cannot be written: " + reason);
        f.initCause(e);
        return f;
    }
}
