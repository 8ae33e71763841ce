package io.tidemark.emulator.filer;

/** Filer paths: absolute, slash-separated, no trailing slash except the root. */
public final class FilerPaths {

    public static final String ROOT = "/";

    private FilerPaths() {
    }

    public static String join(String directory, String name) {
        return directory.equals(ROOT) ? ROOT + name : directory + "/" + name;
    }

    /** The directory holding {@code path}; the root for a top-level entry. */
    public static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? ROOT : path.substring(0, slash);
    }

    public static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    public static String normalize(String directory) {
        if (directory == null || directory.isEmpty()) {
            return ROOT;
        }
        String d = directory.startsWith("/") ? directory : "/" + directory;
        while (d.length() > 1 && d.endsWith("/")) {
            d = d.substring(0, d.length() - 1);
        }
        return d;
    }
}
