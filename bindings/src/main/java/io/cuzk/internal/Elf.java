package io.cuzk.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A sanity check of a 64-bit little-endian ELF shared object before the dynamic loader maps it:
 * every program header and every loaded segment, and the section header table, must lie inside the
 * file. A truncated library would otherwise be mapped past its end, and the loader's first touch
 * of the missing pages kills the process with SIGBUS.
 */
final class Elf {
    private Elf() {}

    private static final int PT_LOAD = 1;

    /**
     * Null when the header of a file of fileSize bytes (its first bytes in head, at least 64 of
     * them, or all of them when the file is shorter) and its program headers (read through
     * programHeaders, which returns the bytes at an offset) describe an intact ELF-64 shared object;
     * otherwise what is wrong with it.
     */
    static String problem(long fileSize, ByteBuffer head, ProgramHeaders programHeaders) {
        ByteBuffer h = head.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (fileSize < 64 || h.remaining() < 64) {
            return "it is " + fileSize + " bytes long: too short for an ELF header (truncated?)";
        }
        int p = h.position();
        if (h.get(p) != 0x7f || h.get(p + 1) != 'E' || h.get(p + 2) != 'L' || h.get(p + 3) != 'F') {
            return "it is not an ELF file";
        }
        if (h.get(p + 4) != 2 || h.get(p + 5) != 1) {
            return "it is not a 64-bit little-endian ELF file";
        }
        int type = Short.toUnsignedInt(h.getShort(p + 16));
        if (type != 3) { // ET_DYN
            return "it is not a shared library (ELF type " + type + ")";
        }
        long phoff = h.getLong(p + 32);
        long shoff = h.getLong(p + 40);
        int phentsize = Short.toUnsignedInt(h.getShort(p + 54));
        int phnum = Short.toUnsignedInt(h.getShort(p + 56));
        int shentsize = Short.toUnsignedInt(h.getShort(p + 58));
        int shnum = Short.toUnsignedInt(h.getShort(p + 60));
        if (phentsize < 56 || phnum == 0) {
            return "its program headers are malformed";
        }
        if (!within(phoff, (long) phentsize * phnum, fileSize)) {
            return "its program headers end past its " + fileSize + " bytes (truncated?)";
        }
        if (shnum > 0 && !within(shoff, (long) shentsize * shnum, fileSize)) {
            return "its section headers end past its " + fileSize + " bytes (truncated?)";
        }
        ByteBuffer ph = programHeaders.read(phoff, phentsize * phnum).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < phnum; i++) {
            int at = ph.position() + i * phentsize;
            if (ph.getInt(at) != PT_LOAD) {
                continue;
            }
            long offset = ph.getLong(at + 8);
            long filesz = ph.getLong(at + 32);
            if (!within(offset, filesz, fileSize)) {
                return "its loadable segment " + i + " ends past its " + fileSize + " bytes (truncated?)";
            }
        }
        return null;
    }

    private static boolean within(long offset, long length, long size) {
        return offset >= 0 && length >= 0 && offset <= size && length <= size - offset;
    }

    /** The bytes of the file at an offset. */
    interface ProgramHeaders {
        ByteBuffer read(long offset, int length);
    }

    /** The check of a library held in memory. */
    static String problem(ByteBuffer whole) {
        return problem(whole.remaining(), whole, (offset, length) -> whole.duplicate().position((int) (whole.position() + offset))
                .limit((int) (whole.position() + offset + length)).slice());
    }
}
