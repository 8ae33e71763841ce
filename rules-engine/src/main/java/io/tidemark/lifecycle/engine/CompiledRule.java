package io.tidemark.lifecycle.engine;

import io.tidemark.lifecycle.config.LifecycleRule;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One rule in the form evaluation needs: a flat filter and the day counts of its actions, with zero (or
 * {@code null} for the date) meaning "not set". Immutable.
 */
public final class CompiledRule {

    private final int index;
    private final String id;
    private final boolean enabled;
    private final String prefix;
    private final String[] tagKeys;
    private final String[] tagValues;
    private final Long sizeGreaterThan;
    private final Long sizeLessThan;
    private final int expirationDays;
    private final Instant expirationDate;
    private final boolean expiredObjectDeleteMarker;
    private final int noncurrentDays;
    private final int newerNoncurrentVersions;
    private final int abortDays;
    private final RuleHash hash;
    private final List<ActionKind> kinds;
    private final LifecycleRule source;

    CompiledRule(int index, String id, LifecycleRule source, RuleHash hash, String prefix, Map<String, String> tags,
                 Long sizeGreaterThan, Long sizeLessThan, int expirationDays, Instant expirationDate,
                 boolean expiredObjectDeleteMarker, int noncurrentDays, int newerNoncurrentVersions, int abortDays,
                 List<ActionKind> kinds) {
        this.index = index;
        this.id = id;
        this.source = source;
        this.enabled = source.enabled();
        this.hash = hash;
        this.prefix = prefix;
        this.tagKeys = tags.keySet().stream().sorted().toArray(String[]::new);
        this.tagValues = new String[tagKeys.length];
        for (int i = 0; i < tagKeys.length; i++) {
            tagValues[i] = tags.get(tagKeys[i]);
        }
        this.sizeGreaterThan = sizeGreaterThan;
        this.sizeLessThan = sizeLessThan;
        this.expirationDays = expirationDays;
        this.expirationDate = expirationDate;
        this.expiredObjectDeleteMarker = expiredObjectDeleteMarker;
        this.noncurrentDays = noncurrentDays;
        this.newerNoncurrentVersions = newerNoncurrentVersions;
        this.abortDays = abortDays;
        this.kinds = List.copyOf(kinds);
    }

    /** The rule's position in the document. */
    public int index() {
        return index;
    }

    /** The rule's ID, generated from its content when the document gave none. */
    public String id() {
        return id;
    }

    public boolean enabled() {
        return enabled;
    }

    public RuleHash hash() {
        return hash;
    }

    public String prefix() {
        return prefix;
    }

    /** The rule as the document wrote it. */
    public LifecycleRule source() {
        return source;
    }

    /** Every kind of gateway action this rule can ask for. */
    public List<ActionKind> kinds() {
        return kinds;
    }

    public int expirationDays() {
        return expirationDays;
    }

    public int noncurrentDays() {
        return noncurrentDays;
    }

    public int abortDays() {
        return abortDays;
    }

    /** How many newer noncurrent versions the rule keeps whatever their age; 0 when it keeps no count. */
    public int newerNoncurrentVersions() {
        return newerNoncurrentVersions;
    }

    /**
     * When this rule's action of {@code kind} falls due for an entry with these times, the same instant evaluation
     * gives; empty when the rule has no such action, or the action needs a time that is not known. What the
     * processors re-check a decision with at the moment of action: the filter was the decider's to apply (the
     * entry's identity, tags included, is checked by the gateway), the time is the rule's.
     *
     * @param modTime         the entry's modification time (an upload's initiation)
     * @param noncurrentSince when the version became noncurrent, or {@code null} when not known
     */
    public Optional<Instant> dueAt(ActionKind kind, Instant modTime, Instant noncurrentSince,
                                   LifecycleCalendar calendar) {
        return Optional.ofNullable(switch (kind) {
            case EXPIRATION_DAYS -> expirationDays > 0 && modTime != null
                    ? calendar.dueAt(modTime, expirationDays) : null;
            case EXPIRATION_DATE -> expirationDate;
            case NONCURRENT_DAYS -> noncurrentDays > 0 && noncurrentSince != null
                    ? calendar.dueAt(noncurrentSince, noncurrentDays) : null;
            case NEWER_NONCURRENT -> newerNoncurrentVersions > 0 && noncurrentDays == 0
                    ? (noncurrentSince != null ? noncurrentSince : modTime) : null;
            case EXPIRED_DELETE_MARKER -> expiredObjectDeleteMarker ? modTime
                    : expirationDays > 0 && modTime != null ? calendar.dueAt(modTime, expirationDays)
                    : expirationDate;
            case ABORT_MPU -> abortDays > 0 && modTime != null ? calendar.dueAt(modTime, abortDays) : null;
            default -> null;
        });
    }

    boolean hasFirstTag() {
        return tagKeys.length > 0;
    }

    String firstTagKey() {
        return tagKeys[0];
    }

    String firstTagValue() {
        return tagValues[0];
    }

    boolean expiresVersions() {
        return expirationDays > 0 || expirationDate != null || expiredObjectDeleteMarker || noncurrentDays > 0
                || newerNoncurrentVersions > 0;
    }

    boolean abortsUploads() {
        return abortDays > 0;
    }

    /** Whether the filter selects this version. The prefix was already checked by the index. */
    private boolean selects(ObjectVersion version) {
        Map<String, String> tags = version.tags();
        for (int i = 0; i < tagKeys.length; i++) {
            if (!tagValues[i].equals(tags.get(tagKeys[i]))) {
                return false;
            }
        }
        if (sizeGreaterThan != null && version.size() <= sizeGreaterThan) {
            return false;
        }
        return sizeLessThan == null || version.size() < sizeLessThan;
    }

    /** This rule's action for the version, due or not, or {@code null} when the rule does not apply to it. */
    RuleMatch matchVersion(ObjectVersion version, BucketVersioning versioning, LifecycleCalendar calendar) {
        if (!enabled || !selects(version)) {
            return null;
        }
        if (!version.isLatest()) {
            return matchNoncurrent(version, versioning, calendar);
        }
        if (version.isDeleteMarker()) {
            return matchDeleteMarker(version, calendar);
        }
        LifecycleAction action = versioning.versioned() ? LifecycleAction.CREATE_DELETE_MARKER : LifecycleAction.DELETE;
        if (expirationDays > 0) {
            return match(action, ActionKind.EXPIRATION_DAYS, calendar.dueAt(version.modTime(), expirationDays));
        }
        if (expirationDate != null) {
            return match(action, ActionKind.EXPIRATION_DATE, expirationDate);
        }
        return null;
    }

    private RuleMatch matchNoncurrent(ObjectVersion version, BucketVersioning versioning, LifecycleCalendar calendar) {
        if ((noncurrentDays == 0 && newerNoncurrentVersions == 0) || !versioning.versioned()) {
            return null;
        }
        if (newerNoncurrentVersions > 0) {
            // The newest N noncurrent versions are kept whatever their age; an unknown rank keeps the version.
            Integer rank = version.noncurrentIndex();
            if (rank == null || rank < newerNoncurrentVersions) {
                return null;
            }
            if (noncurrentDays == 0) {
                // A keep count alone (seaweedfs mode): rank decides, so the version is due since it became noncurrent.
                return match(LifecycleAction.DELETE_VERSION, ActionKind.NEWER_NONCURRENT,
                        version.noncurrentSince().orElse(version.modTime()));
            }
        }
        // Days count from demotion; with no demotion time known the version is not due (the caller counts it).
        return version.noncurrentSince()
                .map(since -> match(LifecycleAction.DELETE_VERSION, ActionKind.NONCURRENT_DAYS,
                        calendar.dueAt(since, noncurrentDays)))
                .orElse(null);
    }

    /**
     * Only a marker with nothing beneath it (an "expired object delete marker") is ever removed. With
     * ExpiredObjectDeleteMarker that happens at once; an Expiration by Days waits until the marker itself is
     * that many days old, and an Expiration by Date applies from the date.
     */
    private RuleMatch matchDeleteMarker(ObjectVersion marker, LifecycleCalendar calendar) {
        if (marker.numVersions() != 1) {
            return null;
        }
        Instant due;
        if (expiredObjectDeleteMarker) {
            due = marker.modTime();
        } else if (expirationDays > 0) {
            due = calendar.dueAt(marker.modTime(), expirationDays);
        } else if (expirationDate != null) {
            due = expirationDate;
        } else {
            return null;
        }
        return match(LifecycleAction.DELETE_MARKER_CLEANUP, ActionKind.EXPIRED_DELETE_MARKER, due);
    }

    /** The abort action for an upload whose destination key this rule's prefix already matched. */
    RuleMatch matchUpload(MultipartUpload upload, LifecycleCalendar calendar) {
        if (!enabled || abortDays == 0) {
            return null;
        }
        return match(LifecycleAction.ABORT_MPU, ActionKind.ABORT_MPU, calendar.dueAt(upload.initiated(), abortDays));
    }

    private RuleMatch match(LifecycleAction action, ActionKind kind, Instant due) {
        return new RuleMatch(action, kind, id, index, hash, due);
    }

    @Override
    public String toString() {
        return "CompiledRule[" + index + ", id=" + id + ", hash=" + hash + ", kinds=" + kinds + "]";
    }
}
