package io.tidemark.replay;

import io.tidemark.messages.ObjectTask;
import java.time.Instant;
import java.util.Map;

/**
 * One armed timer: what to do to which entry, from when, and what the entry looked like when the timer was armed
 * (its identity goes into the task; its size, tags and times let the firing re-check the current rules).
 *
 * @param timerId        one per object (or upload) and action kind: arming again replaces the timer
 * @param objectPath     the bucket-relative path the gateway acts on: the key, or {@code .uploads/<id>}
 * @param versionId      the version the entry was when armed (the task names none for a current-version
 *                       expiration); empty in a never-versioned bucket
 * @param modTime        the entry's modification time (an upload's initiation)
 * @param noncurrentSince when the version became noncurrent (the gateway's stamp), for a noncurrent-version
 *                       timer; {@code null} otherwise
 * @param protectedUntil object lock on the entry when armed: its retention date, {@link Instant#MAX} for a legal
 *                       hold, {@code null} for none; a timer never fires while it holds
 * @param armedTsNs      the ts_ns of the meta-log or re-arm record that armed it
 */
public record ReplayTimer(String timerId, String bucket, String logicalKey, String objectPath, String versionId,
                          String kind, String ruleId, String ruleHash, Instant dueAt,
                          ObjectTask.ExpectedIdentity identity, long size, Map<String, String> tags, Instant modTime,
                          Instant noncurrentSince, Instant protectedUntil, long armedTsNs) {

    /**
     * The due instant of a timer that waits for an event rather than a time: a current null version's noncurrent
     * timer, until a pointer flip demotes it. Never reached, so never fired.
     */
    public static final Instant NEVER = Instant.parse("9999-12-31T23:59:59Z");

    public ReplayTimer {
        tags = tags == null ? Map.of() : Map.copyOf(tags);
    }

    boolean upload() {
        return "ABORT_MPU".equals(kind);
    }

    boolean noncurrent() {
        return "NONCURRENT_DAYS".equals(kind);
    }

    /** A candidate for the removal of an expired delete marker; it stays armed while the marker is latest. */
    boolean marker() {
        return "EXPIRED_DELETE_MARKER".equals(kind);
    }

    ReplayTimer retimed(String newRuleId, String newRuleHash, Instant newDueAt) {
        return new ReplayTimer(timerId, bucket, logicalKey, objectPath, versionId, kind, newRuleId, newRuleHash, newDueAt,
                identity, size, tags, modTime, noncurrentSince, protectedUntil, armedTsNs);
    }
}
