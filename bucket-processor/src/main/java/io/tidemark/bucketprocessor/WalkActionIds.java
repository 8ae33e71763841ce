package io.tidemark.bucketprocessor;

import io.tidemark.messages.ObjectTask;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The action id of a walker decision: a digest of what was decided on what — the kind, the object and version, the
 * entry's identity and the rule — and not of the walk, so the same decision made by a redone page or by the next
 * walk has the same id downstream.
 */
final class WalkActionIds {

    private WalkActionIds() {
    }

    static String of(String kind, ObjectTask.Target target, ObjectTask.ExpectedIdentity identity, String ruleHash) {
        String source = kind + "|" + target.bucket() + "|" + target.objectPath() + "|" + target.versionId() + "|"
                + (identity == null ? "" : identity.mtimeNs() + ":" + identity.size() + ":" + identity.headFid() + ":"
                + identity.extendedHash()) + "|" + ruleHash;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(source.getBytes(StandardCharsets.UTF_8));
            return "walker-" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
