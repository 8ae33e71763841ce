package io.tidemark.replay;

import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.Evaluation;
import io.tidemark.lifecycle.engine.MultipartUpload;
import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.lifecycle.engine.RuleMatch;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.RearmRole;
import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Decides what one meta-log or re-arm record does to the timers: arm (or re-time) a timer, cancel one, or
 * nothing. A pure function of the record, the bucket's current rules and the timer already armed, so every case
 * is tested without a broker.
 *
 * <p>Timers this version keeps: Expiration/Days of the current version (an unversioned object, a bucket's null
 * version, or the latest version in {@code .versions}, expired without a version ID so the gateway checks the
 * identity against what is latest when it acts), NoncurrentVersionExpiration/NoncurrentDays of a demoted version
 * (from the gateway's noncurrent-since stamp; rules with NewerNoncurrentVersions are left to the walker, which
 * knows ranks), AbortIncompleteMultipartUpload, and the removal of a delete marker that is latest (a candidate the
 * gateway's sole-survivor check decides on, offered again whenever a version beneath it is deleted). An overwrite,
 * a re-tag or any other change to the entry re-arms from the entry as it is now (its identity changed, so the old
 * timer could only ever NOOP); a delete, a delete marker or an upload's end cancels.
 *
 * <p>A bare object (a null version) that a NoncurrentDays rule may reach has its noncurrent timer armed as soon as
 * it is written, waiting ({@link ReplayTimer#NEVER}): the gateway never stamps a null version it demotes (it stamps
 * only the file the latest pointer names, and the null version has none), so the pointer flip that demotes it is
 * the only sign, and the flip carries nothing of the entry. The waiting timer keeps the entry's identity until then.
 * A null delete marker ({@code .versions/v_null}) gets no timer: the gateway finds version "null" at the bare path
 * only, so no request could remove it.
 */
final class TimerPlanner {

    /** What a record does to the timers. */
    sealed interface Change permits Arm, Cancel, Nothing, Walk {
    }

    record Arm(ReplayTimer timer) implements Change {
    }

    record Cancel(String timerId) implements Change {
    }

    /** @param reason why the record arms nothing, for the skipped-records metric */
    record Nothing(String reason) implements Change {
    }

    /**
     * A recovery walk of one key (or of a whole bucket), for the walker to list it and re-arm what it finds.
     *
     * @param reason why it is asked for, as {@code tidemark_replay_walks_requested_total} counts it
     */
    record Walk(BucketTask task, String reason) implements Change {
    }

    static String currentTimerId(String bucket, String logicalKey) {
        return bucket + "/" + logicalKey + "#" + ActionKind.EXPIRATION_DAYS;
    }

    static String noncurrentTimerId(String bucket, String logicalKey, String versionId) {
        return bucket + "/" + logicalKey + "#" + versionId + "#" + ActionKind.NONCURRENT_DAYS;
    }

    static String markerTimerId(String bucket, String logicalKey) {
        return bucket + "/" + logicalKey + "#" + ActionKind.EXPIRED_DELETE_MARKER;
    }

    static String uploadTimerId(String bucket, String uploadPath) {
        return bucket + "/" + uploadPath + "#" + ActionKind.ABORT_MPU;
    }

    /** The noncurrent timer of a key's null version: waiting while it is current, armed once it is demoted. */
    static String nullVersionTimerId(String bucket, String logicalKey) {
        return noncurrentTimerId(bucket, logicalKey, S3Layout.NULL_VERSION_ID);
    }

    /** The version ID a noncurrent timer of this entry goes by: a bare entry in a versioned bucket is "null". */
    private static String noncurrentVersionId(Entry entry, boolean versionFile) {
        return versionFile ? S3Entries.versionId(entry, true) : S3Layout.NULL_VERSION_ID;
    }

    /** A null delete marker: listed as version "null", which the gateway looks for at the bare path only. */
    private static boolean unreachableNullMarker(Entry entry, boolean versionFile) {
        return versionFile && S3Entries.versionId(entry, true).equals(S3Layout.NULL_VERSION_ID);
    }

    /**
     * @param rules    the bucket's compiled valid rules, empty when it has no (valid) lifecycle configuration
     * @param existing the timer currently armed under an id, if any
     */
    List<Change> plan(MetaLogRecord record, Optional<BucketRules> rules, Function<String, Optional<ReplayTimer>> existing,
                      Instant now) {
        if (record.getBucket().isEmpty() || record.getLogicalKey().isEmpty()) {
            return List.of(new Nothing("not-an-object"));
        }
        String bucket = record.getBucket();
        String key = record.getLogicalKey();
        boolean hasNew = record.getEvent().hasNewEntry();
        Entry entry = hasNew ? record.getEvent().getNewEntry() : record.getEvent().getOldEntry();
        EventKind kind = record.getKind();
        if (kind == EventKind.REARM) {
            boolean versionFile = S3Layout.isVersionsDirectoryName(record.getDirectory())
                    && S3Layout.isVersionFileName(entry.getName());
            // meta-log and rearm are not ordered against each other: a listing older than the event (or the later
            // listing) that armed the timer must not take the timer back to an entry that may be gone.
            Optional<ReplayTimer> armed = existing.apply(rearmTarget(record, entry, versionFile));
            if (armed.isPresent() && olderThanArmed(entry, armed.get())) {
                return List.of(new Nothing("stale-rearm"));
            }
            Change change = rearm(record, rules, entry, versionFile, now);
            if (record.getRearmRole() == RearmRole.CURRENT && versionFile) {
                // A version the walk found latest is not noncurrent (any more): a timer from its demotion is void.
                return List.of(change, new Cancel(noncurrentTimerId(bucket, key, S3Entries.versionId(entry, true))));
            }
            if (record.getRearmRole() == RearmRole.CURRENT && record.getEvent().hasNewEntry()
                    && !entry.getIsDirectory()) {
                // The current null version: its noncurrent timer waits for the demotion.
                return List.of(change, nullVersionWaits(record, rules, entry));
            }
            return List.of(change);
        }
        if (kind == EventKind.UPLOAD_INITIATED || kind == EventKind.UPLOAD_ENDED) {
            String uploadPath = S3Layout.UPLOADS_DIRECTORY + "/" + entry.getName();
            if (kind == EventKind.UPLOAD_ENDED || rules.isEmpty()) {
                return List.of(new Cancel(uploadTimerId(bucket, uploadPath)));
            }
            return List.of(armUpload(record, rules.get(), uploadPath, entry, now));
        }
        boolean versionFile = S3Layout.isVersionsDirectoryName(record.getDirectory())
                && S3Layout.isVersionFileName(entry.getName());
        String currentId = currentTimerId(bucket, key);
        String markerId = markerTimerId(bucket, key);
        switch (kind) {
            case OBJECT_DELETED: {
                // The bare object went: its own timers go, not the current timer of a version in .versions (a
                // noncurrent null version deleted leaves the latest version's expiration armed), nor a timer armed
                // on a newer entry of the key (this removal's event came late).
                Optional<ReplayTimer> armed = existing.apply(currentId);
                Change current = armed.filter(t -> !bareVersion(t.versionId())).isPresent()
                        ? new Nothing("noncurrent-null-deleted")
                        : removalOf(currentId, entry, armed);
                String nullId = nullVersionTimerId(bucket, key);
                return List.of(current, removalOf(nullId, entry, existing.apply(nullId)));
            }
            case DELETE_MARKER_CREATED: {
                // The marker is latest now, unless the version the current timer knows was written after it: then
                // this event came late (through a filer released late, or a copy published again) and the timer
                // stands. Judged by the entries' mtimes, which the gateways stamp in whole seconds, and within one
                // second by the filers' stamps of the two events; if they are wrong about the order, the timer fires
                // on a version that is not latest, the gateway answers NOOP and a walk of the key follows, which is
                // slow but deletes nothing and loses nothing.
                Instant markerTime = S3Entries.modTime(entry);
                Change current = existing.apply(currentId)
                        .filter(t -> armedOnLaterEntry(t, markerTime, record.getTsNs())).isPresent()
                        ? new Nothing("late-removal") : new Cancel(currentId);
                // Nor does a late marker take the candidate's place from a marker placed after it.
                String markerVersion = S3Entries.versionId(entry, versionFile);
                Change marker = existing.apply(markerId).filter(t -> !t.versionId().equals(markerVersion)
                        && armedOnLaterEntry(t, markerTime, record.getTsNs())).isPresent()
                        ? new Nothing("late-marker") : armMarker(record, rules, entry, versionFile, now);
                return List.of(current, marker);
            }
            case VERSION_DELETED: {
                String deleted = S3Entries.versionId(entry, versionFile);
                Change marker = existing.apply(markerId)
                        .map(watched -> watched.versionId().equals(deleted) ? (Change) new Cancel(markerId)
                                : rearmMarker(watched, rules, record))
                        .orElse(new Nothing("no-marker"));
                return List.of(new Cancel(noncurrentTimerId(bucket, key, deleted)), marker);
            }
            case LATEST_POINTER_FLIPPED:
                return pointerFlipped(record, rules, existing, now);
            case OBJECT_WRITTEN, TAGS_CHANGED, VERSION_CREATED:
                if (!hasNew || entry.getIsDirectory()) {
                    return List.of(new Nothing("no-entry"));
                }
                if (kind == EventKind.TAGS_CHANGED && versioned(rules)) {
                    return versionUpdated(record, rules, entry, versionFile, existing, now);
                }
                Change current = kind == EventKind.TAGS_CHANGED
                        ? dueFromTheChange(armCurrent(record, rules, entry, versionFile, now), record)
                        : armCurrent(record, rules, entry, versionFile, now);
                if (kind != EventKind.TAGS_CHANGED && !record.getEvent().hasOldEntry() && versioned(rules)) {
                    // A new version on top: a delete marker that was latest is not any more.
                    return versionFile ? List.of(current, new Cancel(markerId))
                            : List.of(current, new Cancel(markerId), nullVersionWaits(record, rules, entry));
                }
                return versionFile ? List.of(current) : List.of(current, nullVersionWaits(record, rules, entry));
            case OTHER:
                if (!hasNew || entry.getIsDirectory()) {
                    return List.of(new Nothing("other"));
                }
                if (unreachableNullMarker(entry, versionFile)) {
                    return List.of(new Nothing("null-delete-marker"));
                }
                String versionId = S3Entries.versionId(entry, versionFile);
                Optional<ReplayTimer> watchedMarker = S3Entries.isDeleteMarker(entry)
                        ? existing.apply(markerId).filter(t -> t.versionId().equals(versionId)) : Optional.empty();
                if (entry.getExtendedMap().containsKey(S3Layout.NONCURRENT_SINCE_NS)) {
                    // The gateway stamps a version when it is demoted: NoncurrentDays count from that stamp.
                    Change noncurrent = armNoncurrent(record, rules, entry, noncurrentVersionId(entry, versionFile),
                            S3Entries.noncurrentSince(entry), now);
                    return watchedMarker.isPresent() ? List.of(noncurrent, new Cancel(markerId)) : List.of(noncurrent);
                }
                if (watchedMarker.isPresent()) {
                    // The marker's own entry changed: its identity did, so the candidate is taken from it again.
                    return List.of(armMarker(record, rules, entry, versionFile, now));
                }
                // Metadata changed (a lock): the armed identity is stale. Re-arm only the timers armed on this entry;
                // an update to another version's file must not arm a current-version timer.
                Optional<ReplayTimer> armed = existing.apply(currentId);
                if (armed.isPresent() && armed.get().versionId().equals(versionId)) {
                    Change rearmed = dueFromTheChange(armCurrent(record, rules, entry, versionFile, now), record);
                    return versionFile ? List.of(rearmed) : List.of(rearmed, nullVersionWaits(record, rules, entry));
                }
                String noncurrentId = noncurrentVersionId(entry, versionFile);
                Optional<ReplayTimer> noncurrent = existing.apply(noncurrentTimerId(bucket, key, noncurrentId));
                if (noncurrent.isPresent()) {
                    return List.of(dueFromTheChange(rearmNoncurrent(record, rules, entry, noncurrentId,
                            noncurrent.get(), now), record));
                }
                if (armed.isEmpty() && existing.apply(markerId).isEmpty() && lockEased(record.getEvent())
                        && !S3Entries.isDeleteMarker(entry)) {
                    // A lock lifted (or shortened) on an entry no timer knows: its timer fired before the lock's
                    // event came (the task met the lock, and a walk of the key was asked for), or was armed by no
                    // one. The lift is what frees it, and nothing else would re-arm it: the walk's listing may have
                    // been made while it was held and reach the stream after this event (meta-log and rearm are not
                    // ordered), arming a timer under a hold that no longer exists. Armed from the event, the entry
                    // as it is now wins over such a listing (same mtime, another identity: stale-rearm). Unstamped,
                    // it is the latest version as far as one event tells (a demoted one carries the stamp, above);
                    // if it is not, the gateway's identity check against what is latest answers NOOP and a walk of
                    // the key follows. A walk of the key is asked for now as well: one event cannot tell a demoted
                    // null version (never stamped) from the current one, and its listing after the lift re-arms the
                    // noncurrent timer the waiting one below stands for (same identity: not refused as stale).
                    Change rearmed = dueFromTheChange(armCurrent(record, rules, entry, versionFile, now), record);
                    Walk walk = walkOfKey(record, "lifted-", "lock-lifted");
                    return versionFile ? List.of(rearmed, walk)
                            : List.of(rearmed, nullVersionWaits(record, rules, entry), walk);
                }
                return List.of(new Nothing("other"));
            default:
                return List.of(new Nothing(kind.name().toLowerCase(java.util.Locale.ROOT)));
        }
    }

    /**
     * A recovery walk's record: the entry as listed under the rules that are current now, in the role the walk
     * found it in (the walk knows which version is latest; a single event does not).
     */
    private Change rearm(MetaLogRecord record, Optional<BucketRules> rules, Entry entry, boolean versionFile,
                         Instant now) {
        if (!record.getEvent().hasNewEntry()) {
            return new Nothing("no-entry");
        }
        RearmRole role = record.getRearmRole();
        if (role == RearmRole.UPLOAD) {
            String uploadPath = S3Layout.UPLOADS_DIRECTORY + "/" + entry.getName();
            return rules.isEmpty() ? new Cancel(uploadTimerId(record.getBucket(), uploadPath))
                    : armUpload(record, rules.get(), uploadPath, entry, now);
        }
        if (entry.getIsDirectory()) {
            return new Nothing("no-entry");
        }
        if (role == RearmRole.NONCURRENT) {
            Optional<Instant> since = record.getNoncurrentSinceNs() > 0
                    ? Optional.of(EpochNanos.toInstant(record.getNoncurrentSinceNs()))
                    : S3Entries.noncurrentSince(entry);
            if (unreachableNullMarker(entry, versionFile)) {
                return new Nothing("null-delete-marker");
            }
            return armNoncurrent(record, rules, entry, noncurrentVersionId(entry, versionFile), since, now);
        }
        if (S3Entries.isDeleteMarker(entry)) {
            return armMarker(record, rules, entry, versionFile, now);
        }
        return armCurrent(record, rules, entry, versionFile, now);
    }

    /**
     * The key's latest pointer moved. Usually to a version just written, whose own event came first and armed its
     * timer. When it moves back to an older version — the latest version, or the delete marker above it, was
     * deleted — that version is current again without an event of its own, and only a listing gives its whole
     * entry (the pointer's cache has no tags or identity): a walk of the key is requested, whose re-arm records arm
     * its expiration. Without this, an object restored by deleting its delete marker would never expire.
     */
    private List<Change> pointerFlipped(MetaLogRecord record, Optional<BucketRules> rules,
                                        Function<String, Optional<ReplayTimer>> existing, Instant now) {
        EventNotification event = record.getEvent();
        if (!event.hasNewEntry()) {
            return List.of(new Nothing("pointer-flipped"));
        }
        Entry after = event.getNewEntry();
        String key = record.getLogicalKey();
        boolean nullLatest = S3Entries.text(after, S3Layout.NULL_VERSION_IS_LATEST).map(S3Layout::flag)
                .orElse(false);
        String latest = nullLatest ? S3Layout.NULL_VERSION_ID
                : S3Entries.text(after, S3Layout.LATEST_VERSION_ID).orElse(S3Layout.NULL_VERSION_ID);
        Change walk = walkAfterFlip(record, rules, existing, after, key, nullLatest, latest);
        if (latest.equals(S3Layout.NULL_VERSION_ID)) {
            // The null version is current again: its timer waits for the next demotion (the gateway's "is it
            // latest" guard reads the pointer alone, and a current null version has none to read).
            Optional<ReplayTimer> nullTimer = existing.apply(nullVersionTimerId(record.getBucket(), key));
            return List.of(nullTimer.<Change>map(t -> new Arm(waiting(t, record.getTsNs())))
                    .orElse(new Nothing("pointer-flipped")), walkIfStale(walk, record, rules,
                    nullTimer.filter(t -> t.noncurrentSince() != null).isPresent()));
        }
        // Whatever else the flip means, the version it names is current: a timer from its demotion is void.
        String noncurrentId = noncurrentTimerId(record.getBucket(), key, latest);
        return List.of(new Cancel(noncurrentId), walkIfStale(walk, record, rules,
                existing.apply(noncurrentId).isPresent()), nullVersionDemoted(record, rules, existing, now));
    }

    /**
     * The walk a flip asks for, or, when it voids a timer its version's demotion armed, a walk of the key. The flip may
     * be stale: with several filers, a version's own events (its creation, this flip) can come after those of its
     * successor, whose write stamped it noncurrent and armed that timer. One event cannot tell; the key's listing
     * re-arms the timer if the version is noncurrent after all.
     */
    private static Change walkIfStale(Change walk, MetaLogRecord record, Optional<BucketRules> rules,
                                      boolean voidsDemotedTimer) {
        return walk instanceof Nothing && rules.isPresent() && voidsDemotedTimer
                ? walkOfKey(record, "promoted-", "promoted-version") : walk;
    }

    /**
     * A flip from no pointer (the null version current, implicitly or by the gateway's flag) to a version demotes
     * the null version, if the key has one: it is noncurrent from now, the creation of its successor. Its waiting
     * timer has its entry; without one (the rules came after it, say) but with the gateway's explicit flag, a walk
     * of the key finds it. A flip on a key that never had a null version (its first version) does neither.
     */
    private Change nullVersionDemoted(MetaLogRecord record, Optional<BucketRules> rules,
                                      Function<String, Optional<ReplayTimer>> existing, Instant now) {
        EventNotification event = record.getEvent();
        if (!event.hasOldEntry()) {
            return new Nothing("pointer-flipped");
        }
        Entry before = event.getOldEntry();
        boolean explicitNull = S3Entries.text(before, S3Layout.NULL_VERSION_IS_LATEST).map(S3Layout::flag)
                .orElse(false);
        if (!explicitNull && S3Entries.text(before, S3Layout.LATEST_VERSION_ID).isPresent()) {
            return new Nothing("pointer-flipped");
        }
        Optional<ReplayTimer> waiting = existing.apply(nullVersionTimerId(record.getBucket(), record.getLogicalKey()))
                .filter(t -> t.noncurrentSince() == null);
        if (waiting.isPresent()) {
            return demote(waiting.get(), rules, EpochNanos.toInstant(record.getTsNs()), record.getTsNs(), now);
        }
        if (explicitNull && rules.isPresent() && noncurrentMayApply(rules.get().rules(), record.getLogicalKey())) {
            return walkOfKey(record, "demoted-", "version-updated");
        }
        return new Nothing("pointer-flipped");
    }

    /** The null version's waiting timer, timed from its demotion at {@code since}. */
    private Change demote(ReplayTimer waiting, Optional<BucketRules> rules, Instant since, long tsNs, Instant now) {
        if (rules.isEmpty()) {
            return new Cancel(waiting.timerId());
        }
        ObjectVersion version = noncurrent(waiting.logicalKey(), waiting.size(), waiting.tags(), waiting.modTime(),
                S3Layout.NULL_VERSION_ID, since);
        Optional<RuleMatch> match = timerMatch(rules.get().rules().evaluate(version, versioningOfNoncurrent(rules.get()),
                now), ActionKind.NONCURRENT_DAYS);
        if (match.isEmpty()) {
            return new Cancel(waiting.timerId());
        }
        RuleMatch m = match.get();
        return new Arm(new ReplayTimer(waiting.timerId(), waiting.bucket(), waiting.logicalKey(), waiting.objectPath(),
                S3Layout.NULL_VERSION_ID, ActionKind.NONCURRENT_DAYS.name(), m.ruleId(), m.ruleHash().toHex(),
                m.dueAt(), waiting.identity(), waiting.size(), waiting.tags(), waiting.modTime(), since,
                waiting.protectedUntil(), tsNs));
    }

    /** A null version's timer back to waiting for its demotion (it is current again). */
    private static ReplayTimer waiting(ReplayTimer timer, long tsNs) {
        return new ReplayTimer(timer.timerId(), timer.bucket(), timer.logicalKey(), timer.objectPath(),
                S3Layout.NULL_VERSION_ID, ActionKind.NONCURRENT_DAYS.name(), "", "", ReplayTimer.NEVER,
                timer.identity(), timer.size(), timer.tags(), timer.modTime(), null, timer.protectedUntil(), tsNs);
    }

    /**
     * The current null version's noncurrent timer, waiting for its demotion with the entry's identity; cancelled
     * when no NoncurrentDays rule may reach the key.
     */
    private Change nullVersionWaits(MetaLogRecord record, Optional<BucketRules> rules, Entry entry) {
        String timerId = nullVersionTimerId(record.getBucket(), record.getLogicalKey());
        if (rules.isEmpty() || S3Entries.isDeleteMarker(entry)
                || !noncurrentMayApply(rules.get().rules(), record.getLogicalKey())) {
            return new Cancel(timerId);
        }
        String key = record.getLogicalKey();
        return new Arm(new ReplayTimer(timerId, record.getBucket(), key, key, S3Layout.NULL_VERSION_ID,
                ActionKind.NONCURRENT_DAYS.name(), "", "", ReplayTimer.NEVER,
                ObjectTask.ExpectedIdentity.of(EntryIdentity.of(entry)), entry.getAttributes().getFileSize(),
                S3Entries.tags(entry), S3Entries.modTime(entry), null, S3Entries.protectedUntil(entry),
                record.getTsNs()));
    }

    /**
     * A version's noncurrent timer after its entry changed (a re-tag, a lock): timed again from when it was
     * demoted, or, for a null version still current, waiting again with the new identity.
     */
    private Change rearmNoncurrent(MetaLogRecord record, Optional<BucketRules> rules, Entry entry, String versionId,
                                   ReplayTimer armed, Instant now) {
        if (armed.noncurrentSince() == null && versionId.equals(S3Layout.NULL_VERSION_ID)) {
            return nullVersionWaits(record, rules, entry);
        }
        return armNoncurrent(record, rules, entry, versionId, Optional.ofNullable(armed.noncurrentSince()), now);
    }

    /**
     * The removal of {@code removed} cancels the timer armed under {@code timerId}, unless that timer was armed on
     * another entry of the key that is not older: then the removal's event came after a newer write's (a filer
     * released late, or a copy of the event published again after a populator's restart), and cancelling would leave
     * the newer object with no timer, which nothing else re-arms (steady walks do not cover Expiration/Days). Kept,
     * the worst such a timer can do is fire on an entry that has gone: the gateway's identity check answers NOOP and
     * a walk of the key follows.
     */
    private static Change removalOf(String timerId, Entry removed, Optional<ReplayTimer> armed) {
        if (armed.isEmpty() || armed.get().identity() == null || armed.get().modTime() == null) {
            return new Cancel(timerId);
        }
        ReplayTimer timer = armed.get();
        boolean anotherEntry = !timer.identity().equals(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(removed)));
        boolean notOlder = !timer.modTime().isBefore(S3Entries.modTime(removed));
        return anotherEntry && notOlder ? new Nothing("late-removal") : new Cancel(timerId);
    }

    /**
     * Whether {@code timer} was armed on an entry written after the one an event stamped {@code eventTsNs} brought,
     * whose mtime is {@code entryTime}: a later mtime, or the same (gateways stamp whole seconds) and a later event.
     */
    private static boolean armedOnLaterEntry(ReplayTimer timer, Instant entryTime, long eventTsNs) {
        if (timer.modTime() == null) {
            return false;
        }
        int order = timer.modTime().compareTo(entryTime);
        return order > 0 || order == 0 && timer.armedTsNs() > eventTsNs;
    }

    private static boolean bareVersion(String versionId) {
        return versionId.isEmpty() || versionId.equals(S3Layout.NULL_VERSION_ID);
    }

    /** Whether an enabled NoncurrentDays rule's prefix reaches the key (its other filters are not known here). */
    private static boolean noncurrentMayApply(RuleSet rules, String key) {
        return rules.rules().stream()
                .anyMatch(r -> r.enabled() && r.noncurrentDays() > 0 && key.startsWith(r.prefix()));
    }

    private Change walkAfterFlip(MetaLogRecord record, Optional<BucketRules> rules,
                                 Function<String, Optional<ReplayTimer>> existing, Entry after, String key,
                                 boolean nullLatest, String latest) {
        EventNotification event = record.getEvent();
        if (rules.isEmpty() || !event.hasOldEntry()) {
            return new Nothing("pointer-flipped");
        }
        Entry before = event.getOldEntry();
        boolean marker = !nullLatest && S3Entries.text(after, S3Layout.LATEST_VERSION_IS_DELETE_MARKER)
                .map(S3Layout::flag).orElse(false);
        if (marker || !expirationMayApply(rules.get().rules(), key)) {
            // A marker on top is timed by its own event; a key no Expiration rule reaches needs no timer.
            return new Nothing("pointer-flipped");
        }
        if (existing.apply(currentTimerId(record.getBucket(), key)).map(t -> t.versionId().equals(latest))
                .orElse(false)) {
            return new Nothing("pointer-flipped");
        }
        Optional<Long> newMtime = S3Entries.text(after, S3Layout.LATEST_VERSION_MTIME).flatMap(TimerPlanner::number);
        Optional<Long> oldMtime = S3Entries.text(before, S3Layout.LATEST_VERSION_MTIME).flatMap(TimerPlanner::number);
        if (!nullLatest && newMtime.isPresent() && oldMtime.isPresent() && newMtime.get() > oldMtime.get()) {
            // A newer version on top (its own event armed it, or no rule's filter matched it).
            return new Nothing("pointer-flipped");
        }
        return walkOfKey(record, "promoted-", "promoted-version");
    }

    /** A recovery walk of one key, for the walker to list it and re-arm (or act on) what it finds. */
    private static Walk walkOfKey(MetaLogRecord record, String scanPrefix, String reason) {
        return recoveryWalk(record.getBucket(), record.getLogicalKey(), scanPrefix + record.getBucket() + "-"
                + record.getTsNs(), reason);
    }

    /** A recovery walk of the keys under {@code prefix} ({@code ""}: the whole bucket). */
    private static Walk recoveryWalk(String bucket, String prefix, String scanId, String reason) {
        return new Walk(new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                new BucketTask.Details(scanId, BucketTask.Mode.recovery, prefix, null)), reason);
    }

    /** What the scan id of a walk that stands in for a timer moved aside starts with. */
    static final String MOVED_ASIDE_SCAN = "moved-aside-";

    /**
     * The recovery walk that stands in for a timer moved aside (it could not be decoded, or its firing failed), found
     * from the timer's id alone, since its value may be unreadable. An id is {@code bucket/} and then, by kind:
     * {@code logicalKey#EXPIRATION_DAYS}, {@code logicalKey#EXPIRED_DELETE_MARKER},
     * {@code logicalKey#versionId#NONCURRENT_DAYS} or {@code .uploads/<id>#ABORT_MPU}. A bucket name holds no
     * {@code /}, so the bucket ends at the first one; a key may hold {@code #} and {@code /}, so the kind starts after
     * the last {@code #}, and a noncurrent timer's version ID after the one before it (the gateway's version IDs hold
     * none). A timer of a key gets a walk of that key, which lists every version of it and re-arms (or acts on) each
     * role a timer holds. An upload's id names its directory, not the key it is for, and a walk of a prefix lists only
     * the names on the prefix's path (never {@code .uploads}), so only a walk of the whole bucket finds it again; the
     * same goes for an id whose kind cannot be read (a corrupt key).
     *
     * @param stamp what makes the scan id this walk's own
     * @return empty when the id names no bucket
     */
    static Optional<Walk> walkOfTimer(String timerId, String stamp) {
        int slash = timerId.indexOf('/');
        String bucket = slash < 0 ? "" : timerId.substring(0, slash);
        if (!plausibleBucket(bucket)) {
            return Optional.empty();
        }
        String prefix = keyOfTimer(timerId.substring(slash + 1)).orElse("");
        return Optional.of(recoveryWalk(bucket, prefix, MOVED_ASIDE_SCAN + bucket + "-" + stamp, "moved-aside"));
    }

    /**
     * The key whose walk re-arms a timer, from what follows the bucket in its id; empty when only a walk of the whole
     * bucket can (an upload, or a kind this version does not write).
     */
    private static Optional<String> keyOfTimer(String afterBucket) {
        int hash = afterBucket.lastIndexOf('#');
        if (hash < 0) {
            return Optional.empty();
        }
        String kind = afterBucket.substring(hash + 1);
        String head = afterBucket.substring(0, hash);
        if (kind.equals(ActionKind.EXPIRATION_DAYS.name()) || kind.equals(ActionKind.EXPIRED_DELETE_MARKER.name())) {
            return Optional.of(head);
        }
        if (kind.equals(ActionKind.NONCURRENT_DAYS.name())) {
            int version = head.lastIndexOf('#');
            return version < 0 ? Optional.empty() : Optional.of(head.substring(0, version));
        }
        return Optional.empty();
    }

    /**
     * Whether what an id holds before its first {@code /} can be a bucket's name: not empty, and none of what a
     * corrupt key shows (a {@code #}, control characters, bytes that were not UTF-8).
     */
    private static boolean plausibleBucket(String bucket) {
        return !bucket.isEmpty() && bucket.length() <= 255 && bucket.chars().noneMatch(c -> c == '#' || c == '\uFFFD'
                || Character.isISOControl(c) || Character.isWhitespace(c));
    }

    /**
     * A version's own file (or, in a versioned bucket, the bare null version) was updated in place: re-tagged, say.
     * Only the timers armed on this version move, to its new identity: the current-version timer if it is the one
     * that timer knows as latest, its own noncurrent timer if it has one (or a demotion stamp). When no timer knows
     * this version and an Expiration rule may reach the key, its role cannot be told from one event (is it latest?),
     * so a walk of the key decides.
     */
    private List<Change> versionUpdated(MetaLogRecord record, Optional<BucketRules> rules, Entry entry,
                                        boolean versionFile, Function<String, Optional<ReplayTimer>> existing,
                                        Instant now) {
        String bucket = record.getBucket();
        String key = record.getLogicalKey();
        String versionId = S3Entries.versionId(entry, versionFile);
        Optional<ReplayTimer> current = existing.apply(currentTimerId(bucket, key));
        if (current.isPresent() && current.get().versionId().equals(versionId)) {
            Change armed = dueFromTheChange(armCurrent(record, rules, entry, versionFile, now), record);
            return versionFile ? List.of(armed) : List.of(armed, nullVersionWaits(record, rules, entry));
        }
        if (unreachableNullMarker(entry, versionFile)) {
            return List.of(new Nothing("null-delete-marker"));
        }
        String noncurrentId = noncurrentVersionId(entry, versionFile);
        Optional<Instant> stamp = S3Entries.noncurrentSince(entry);
        Optional<ReplayTimer> noncurrent = existing.apply(noncurrentTimerId(bucket, key, noncurrentId));
        if (stamp.isPresent()) {
            return List.of(dueFromTheChange(armNoncurrent(record, rules, entry, noncurrentId, stamp, now), record));
        }
        if (noncurrent.isPresent()) {
            return List.of(dueFromTheChange(rearmNoncurrent(record, rules, entry, noncurrentId, noncurrent.get(), now),
                    record));
        }
        if (current.isPresent() || rules.isEmpty() || !expirationMayApply(rules.get().rules(), key)) {
            // Another version is the one the current timer knows as latest; or no Expiration rule reaches the key.
            return List.of(new Nothing("version-updated"));
        }
        return List.of(walkOfKey(record, "retagged-", "version-updated"));
    }

    /**
     * Whether an update of an entry in place lifted or shortened its lock: it was protected before (a legal hold, a
     * retention) and is not, or until an earlier date, after. Judged on the two entries alone (no clock).
     */
    private static boolean lockEased(EventNotification event) {
        if (!event.hasOldEntry() || !event.hasNewEntry()) {
            return false;
        }
        Instant before = S3Entries.protectedUntil(event.getOldEntry());
        Instant after = S3Entries.protectedUntil(event.getNewEntry());
        return before != null && (after == null || after.isBefore(before));
    }

    /** Whether an enabled Expiration-by-days rule's prefix reaches the key (its other filters are not known here). */
    private static boolean expirationMayApply(RuleSet rules, String key) {
        return rules.rules().stream()
                .anyMatch(r -> r.enabled() && r.expirationDays() > 0 && key.startsWith(r.prefix()));
    }

    private static Optional<Long> number(String text) {
        try {
            return Optional.of(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether a walk's listing of an entry is older than the entry the timer was armed on. Judged by the entries alone
     * (architecture.md, invariant 7): the timer's time comes from the filer's meta-log, the re-arm record's from the
     * bucket processor's clock, and machines' clocks differ. A listing of an older modification is stale; one of the
     * same entry brings what may have changed around it (rules, a lock) and applies; one of another entry with the same
     * modification time (a re-tag) cannot be ordered by it, and the event-armed timer stands — the event of a change
     * after the listing re-arms it anyway, and a timer that fires on a changed entry is followed by a walk of its key.
     */
    private static boolean olderThanArmed(Entry listed, ReplayTimer armed) {
        Instant listedTime = S3Entries.modTime(listed);
        if (armed.modTime() == null || listedTime.isAfter(armed.modTime())) {
            return false;
        }
        if (listedTime.isBefore(armed.modTime())) {
            return true;
        }
        return armed.identity() != null && !armed.identity().equals(ObjectTask.ExpectedIdentity.of(
                EntryIdentity.of(listed)));
    }

    /** The timer a re-arm record is about, by the role the walk found its entry in. */
    private static String rearmTarget(MetaLogRecord record, Entry entry, boolean versionFile) {
        String bucket = record.getBucket();
        String key = record.getLogicalKey();
        return switch (record.getRearmRole()) {
            case UPLOAD -> uploadTimerId(bucket, S3Layout.UPLOADS_DIRECTORY + "/" + entry.getName());
            case NONCURRENT -> noncurrentTimerId(bucket, key, noncurrentVersionId(entry, versionFile));
            default -> S3Entries.isDeleteMarker(entry) ? markerTimerId(bucket, key) : currentTimerId(bucket, key);
        };
    }

    /**
     * The versioning a noncurrent version is judged under. A version is only ever demoted in a versioned bucket,
     * but the bucket's configuration reaches replay-streams on its own topic and may not show the change yet when
     * the demotion's event comes (versioning enabled, then a PUT at once).
     */
    private static BucketVersioning versioningOfNoncurrent(BucketRules rules) {
        return rules.versioning().versioned() ? rules.versioning() : BucketVersioning.ENABLED;
    }

    private static boolean versioned(Optional<BucketRules> rules) {
        return rules.isPresent() && rules.get().versioning() != BucketVersioning.OFF;
    }

    /**
     * A delete marker that has just become latest: a candidate for ExpiredObjectDeleteMarker (or an Expiration
     * rule, which also removes expired markers). One event cannot tell whether other versions lie beneath, so the
     * candidate is armed as if the marker were the sole survivor and the gateway's sole-survivor check decides
     * (a marker over a live version answers NOOP). Once fired, the candidate is kept, watched, until the marker
     * goes or stops being latest: each version deleted beneath it arms it again.
     */
    private Change armMarker(MetaLogRecord record, Optional<BucketRules> rules, Entry entry, boolean versionFile,
                             Instant now) {
        String bucket = record.getBucket();
        String key = record.getLogicalKey();
        String markerId = markerTimerId(bucket, key);
        String versionId = S3Entries.versionId(entry, versionFile);
        if (unreachableNullMarker(entry, versionFile)) {
            // No request can remove it (the gateway looks for "null" at the bare path): counted, never armed.
            return new Nothing("null-delete-marker");
        }
        if (rules.isEmpty() || versionId.isEmpty()) {
            return new Cancel(markerId);
        }
        Instant modTime = S3Entries.modTime(entry);
        Optional<RuleMatch> match = timerMatch(rules.get().rules().evaluate(marker(key, modTime, versionId),
                rules.get().versioning(), now), ActionKind.EXPIRED_DELETE_MARKER);
        if (match.isEmpty()) {
            return new Cancel(markerId);
        }
        RuleMatch m = match.get();
        return new Arm(new ReplayTimer(markerId, bucket, key, key, versionId, ActionKind.EXPIRED_DELETE_MARKER.name(),
                m.ruleId(), m.ruleHash().toHex(), m.dueAt(), ObjectTask.ExpectedIdentity.of(EntryIdentity.of(entry)),
                entry.getAttributes().getFileSize(), Map.of(), modTime, null, null, record.getTsNs()));
    }

    /**
     * A version beneath a watched marker was deleted: the marker may now be the sole survivor, so its candidate is
     * due again, no earlier than the delete (which also gives the firing a new action id).
     */
    private Change rearmMarker(ReplayTimer watched, Optional<BucketRules> rules, MetaLogRecord record) {
        Instant at = EpochNanos.toInstant(record.getTsNs());
        if (rules.isEmpty()) {
            return new Cancel(watched.timerId());
        }
        ObjectVersion marker = marker(watched.logicalKey(), watched.modTime(), watched.versionId());
        Optional<RuleMatch> match = timerMatch(rules.get().rules().evaluate(marker, rules.get().versioning(), at),
                ActionKind.EXPIRED_DELETE_MARKER);
        if (match.isEmpty()) {
            return new Cancel(watched.timerId());
        }
        RuleMatch m = match.get();
        Instant due = m.dueAt().isBefore(at) ? at : m.dueAt();
        return new Arm(new ReplayTimer(watched.timerId(), watched.bucket(), watched.logicalKey(), watched.objectPath(),
                watched.versionId(), watched.kind(), m.ruleId(), m.ruleHash().toHex(), due, watched.identity(),
                watched.size(), watched.tags(), watched.modTime(), null, null, record.getTsNs()));
    }

    /**
     * A timer re-armed by an update of its entry in place (a lock lifted or shortened, a re-tag) is due no earlier than
     * the update: what the change frees became due then, and the task's due instant is what its lateness is counted
     * from (a year's legal hold is not a delete a year late). It fires at once either way.
     */
    private static Change dueFromTheChange(Change change, MetaLogRecord record) {
        Instant changed = EpochNanos.toInstant(record.getTsNs());
        if (change instanceof Arm arm && arm.timer().dueAt().isBefore(changed)) {
            ReplayTimer t = arm.timer();
            return new Arm(t.retimed(t.ruleId(), t.ruleHash(), changed));
        }
        return change;
    }

    /** A latest delete marker as the rules see it, assumed to be its key's only version (the gateway re-checks). */
    static ObjectVersion marker(String key, Instant modTime, String versionId) {
        return new ObjectVersion(key, 0, Map.of(), modTime, true, true, versionId, null, 1, null);
    }

    private Change armCurrent(MetaLogRecord record, Optional<BucketRules> rules, Entry entry, boolean versionFile,
                              Instant now) {
        String bucket = record.getBucket();
        String key = record.getLogicalKey();
        String currentId = currentTimerId(bucket, key);
        if (rules.isEmpty() || S3Entries.isDeleteMarker(entry)) {
            return new Cancel(currentId);
        }
        String versionId = S3Entries.versionId(entry, versionFile);
        Map<String, String> tags = S3Entries.tags(entry);
        Instant modTime = S3Entries.modTime(entry);
        ObjectVersion version = current(key, entry.getAttributes().getFileSize(), tags, modTime, versionId);
        Optional<RuleMatch> match = timerMatch(rules.get().rules().evaluate(version, rules.get().versioning(), now),
                ActionKind.EXPIRATION_DAYS);
        if (match.isEmpty()) {
            return new Cancel(currentId);
        }
        RuleMatch m = match.get();
        return new Arm(new ReplayTimer(currentId, bucket, key, key, versionId, ActionKind.EXPIRATION_DAYS.name(),
                m.ruleId(), m.ruleHash().toHex(), m.dueAt(), ObjectTask.ExpectedIdentity.of(EntryIdentity.of(entry)),
                entry.getAttributes().getFileSize(), tags, modTime, null, S3Entries.protectedUntil(entry), record.getTsNs()));
    }

    /**
     * A demoted version or delete marker (NoncurrentDays removes noncurrent markers too), timed from its
     * noncurrent-since stamp. With NewerNoncurrentVersions in the rule the rank that decides is unknown here, so no
     * timer is armed (never early; the walker counts ranks).
     */
    private Change armNoncurrent(MetaLogRecord record, Optional<BucketRules> rules, Entry entry, String versionId,
                                 Optional<Instant> since, Instant now) {
        String bucket = record.getBucket();
        String key = record.getLogicalKey();
        String timerId = noncurrentTimerId(bucket, key, versionId);
        if (rules.isEmpty() || since.isEmpty() || versionId.isEmpty()) {
            return new Cancel(timerId);
        }
        Map<String, String> tags = S3Entries.tags(entry);
        Instant modTime = S3Entries.modTime(entry);
        ObjectVersion version = noncurrent(key, entry.getAttributes().getFileSize(), tags, modTime, versionId,
                since.get());
        Optional<RuleMatch> match = timerMatch(rules.get().rules().evaluate(version, versioningOfNoncurrent(rules.get()),
                now), ActionKind.NONCURRENT_DAYS);
        if (match.isEmpty()) {
            return new Cancel(timerId);
        }
        RuleMatch m = match.get();
        return new Arm(new ReplayTimer(timerId, bucket, key, key, versionId, ActionKind.NONCURRENT_DAYS.name(),
                m.ruleId(), m.ruleHash().toHex(), m.dueAt(), ObjectTask.ExpectedIdentity.of(EntryIdentity.of(entry)),
                entry.getAttributes().getFileSize(), tags, modTime, since.get(), S3Entries.protectedUntil(entry),
                record.getTsNs()));
    }

    /** A noncurrent version as the rules see it: its rank among noncurrent versions is not known here. */
    static ObjectVersion noncurrent(String key, long size, Map<String, String> tags, Instant modTime, String versionId,
                                    Instant since) {
        return new ObjectVersion(key, size, tags, modTime, false, false, versionId, since, 2, null);
    }

    private Change armUpload(MetaLogRecord record, BucketRules rules, String uploadPath, Entry entry, Instant now) {
        String timerId = uploadTimerId(record.getBucket(), uploadPath);
        Instant initiated = S3Entries.modTime(entry);
        Optional<RuleMatch> match = timerMatch(rules.rules().evaluate(new MultipartUpload(record.getLogicalKey(),
                initiated), now), ActionKind.ABORT_MPU);
        if (match.isEmpty()) {
            return new Cancel(timerId);
        }
        RuleMatch m = match.get();
        return new Arm(new ReplayTimer(timerId, record.getBucket(), record.getLogicalKey(), uploadPath, "",
                ActionKind.ABORT_MPU.name(), m.ruleId(), m.ruleHash().toHex(), m.dueAt(), null, 0, Map.of(), initiated,
                null, null, record.getTsNs()));
    }

    /** The current-version object as the rules see it. */
    static ObjectVersion current(String key, long size, Map<String, String> tags, Instant modTime, String versionId) {
        return new ObjectVersion(key, size, tags, modTime, true, false, versionId.isEmpty() ? null : versionId, null, 1,
                null);
    }

    /** The match a timer of {@code kind} waits for: the one due now, else the next to come, if it is of that kind. */
    static Optional<RuleMatch> timerMatch(Evaluation evaluation, ActionKind kind) {
        Optional<RuleMatch> chosen = evaluation.due().isPresent() ? evaluation.due() : evaluation.upcoming();
        return chosen.filter(m -> m.kind() == kind);
    }

    /** A bucket's valid rules and versioning, compiled once per rule-set hash. */
    record BucketRules(RuleSet rules, BucketVersioning versioning) {
    }
}
