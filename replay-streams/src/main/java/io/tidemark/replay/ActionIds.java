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

    private ActionIds() {
    }

    static String of(ReplayTimer timer) {
        String identity = timer.identity() == null ? "" : timer.identity().mtimeNs() + ":" + timer.identity().size()
                + ":" + timer.identity().headFid() + ":" + timer.identity().extendedHash();
        String source = timer.timerId() + "|" + timer.versionId() + "|" + identity + "|" + timer.dueAt().toEpochMilli();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(source.getBytes(StandardCharsets.UTF_8));
            return "replay-" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
