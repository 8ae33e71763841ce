package io.tidemark.lifecycle.hash;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Go sorts strings by their UTF-8 bytes; Java's {@code String.compareTo} compares UTF-16 code units, which
 * orders characters above U+FFFF differently. Every hash that sorts keys must use this order to match.
 */
public final class Utf8Order {

    public static final Comparator<String> STRINGS = (a, b) ->
            Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private Utf8Order() {
    }
}
