package io.tidemark.config;

import java.util.Locale;

/** Which passed-through settings are secrets, judged by their names, and how they are shown. */
final class Secrets {

    static final String MASK = "[hidden]";

    private Secrets() {
    }

    static boolean looksSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("password") || k.contains("secret") || k.contains("jaas") || k.endsWith(".key")
                || k.contains("token") || k.contains("credentials");
    }
}
