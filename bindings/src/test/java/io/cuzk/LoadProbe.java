package io.cuzk;

/** A child JVM's load of the library, for the loader tests: prints where it came from. */
public final class LoadProbe {
    private LoadProbe() {}

    public static void main(String[] args) {
        try {
            System.out.println("loaded " + Cuzk.libraryInfo().location());
        } catch (NativeLibraryException e) {
            System.out.println("refused " + e.getMessage());
            System.exit(3);
        }
    }
}
