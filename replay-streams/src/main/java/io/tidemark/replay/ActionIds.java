package io.tidemark.replay;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The action id of a fired timer: a digest of the timer and the entry it was armed on, so the same timer firing
 * again (a replay after a crash, before the commit) yields the same id and is recognisable downstream.
 */
final class ActionIds {

    /** One digest per thread: looking SHA-256 up for every fired timer showed in the firing thread's profile. */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    });

    private ActionIds() {
    }

    static String of(ReplayTimer timer) {
        String identity = timer.identity() == null ? "" : timer.identity().mtimeNs() + ":" + timer.identity().size()
                + ":" + timer.identity().headFid() + ":" + timer.identity().extendedHash();
        String source = timer.timerId() + "|" + timer.versionId() + "|" + identity + "|" + timer.dueAt().toEpochMilli();
        // digest() resets the digest for the next call.
        byte[] digest = SHA_256.get().digest(source.getBytes(StandardCharsets.UTF_8));
        return "replay-" + HexFormat.of().formatHex(digest, 0, 16);
    }
}
