package io.tidemark.checker.model;

import java.util.Locale;

/**
 * One step of a history: an S3 operation, a pause, or a fault. Plain values, so a history prints, replays from its
 * seed and shrinks by dropping steps.
 *
 * @param index  the step's place in the history it was generated in (kept when a shrinker drops others)
 * @param bucket the bucket an operation or a gateway fault applies to ({@code ""} for cluster-wide faults)
 * @param key    the object key ({@code ""} when none)
 * @param arg    what the kind needs: the tags of a put, the version a change targets ({@code current},
 *               {@code noncurrent}, {@code oldest}), a versioning state, a rules document, a service instance
 *               ({@code name#n}; for a clock skew, followed by a space and the signed offset in milliseconds), a
 *               filer's index (for a filer's clock skew, followed by a space and the signed offset)
 * @param number a size for a put, a length in milliseconds for a pause, a retention or a fault, a selector among
 *               noncurrent versions
 */
public record Step(int index, Kind kind, String bucket, String key, String arg, long number) {

    public enum Kind {
        PUT, DELETE, DELETE_VERSION, TAG, HOLD, RELEASE, RETAIN, VERSIONING, RULES, REMOVE_RULES, UPLOAD,
        COMPLETE_UPLOAD, ABORT_UPLOAD, WAIT,
        RESTART_SERVICE, FILER_UNAVAILABLE, FILER_SLOW, GATEWAY_RETRY_LATER, GATEWAY_BLOCKED, GATEWAY_UNKNOWN,
        DLQ_REPLAY, CLOCK_SKEW, KAFKA_RESTART, ZOOKEEPER_RESTART,
        // Last, so that the faults before them keep their order: a one-filer history draws from the same list as
        // before these existed, and a seed still makes the same history.
        FILER_STOP, FILER_CLOCK_SKEW, FILER_STREAM_LATE,
        // Drawn only as changes (HistoryGenerator): a history without changes is the one the seed made before these.
        RENAME_RULES, HOLD_LIFTED, CORRUPT_TIMER, LISTINGS_LATE, LISTINGS_FAIL, WALK_STATES_REFUSED,
        // Named only: a history without steady walks may rightly act late on what only they serve.
        CONDUCTOR_PAUSED;

        public boolean fault() {
            return ordinal() >= RESTART_SERVICE.ordinal() && this != RENAME_RULES && this != HOLD_LIFTED;
        }

        /**
         * A kind drawn only among a history's changes (or named with --fault-kinds), never in the draws a seed made
         * before it existed: what changes nothing in S3 (a rule set re-PUT under new IDs), a change undone later (a
         * hold lifted), a timer made unreadable, listings delivered late or failed, walk states ZooKeeper refuses.
         */
        public boolean change() {
            return ordinal() >= RENAME_RULES.ordinal();
        }

        /** A fault that needs a cluster of several filers. */
        public boolean filerFault() {
            return this == FILER_STOP || this == FILER_CLOCK_SKEW || this == FILER_STREAM_LATE;
        }
    }

    public boolean fault() {
        return kind.fault();
    }

    /** The service instance a {@link Kind#CLOCK_SKEW} applies to. */
    public String skewedInstance() {
        return arg.substring(0, arg.indexOf(' '));
    }

    /** The filer (its index in the cluster) a {@link Kind#FILER_STOP} or {@link Kind#FILER_CLOCK_SKEW} applies to. */
    public int filer() {
        int space = arg.indexOf(' ');
        return Integer.parseInt(space < 0 ? arg : arg.substring(0, space));
    }

    /** How far a {@link Kind#CLOCK_SKEW} or {@link Kind#FILER_CLOCK_SKEW} sets a clock off: ahead when positive. */
    public long skewMillis() {
        return Long.parseLong(arg.substring(arg.indexOf(' ') + 1));
    }

    private static String signed(long millis) {
        return millis >= 0 ? "+" + millis : String.valueOf(millis);
    }

    @Override
    public String toString() {
        String what = switch (kind) {
            case PUT -> "put " + bucket + "/" + key + " size=" + number + (arg.isEmpty() ? "" : " tags=" + arg);
            case DELETE -> "delete " + bucket + "/" + key;
            case DELETE_VERSION -> "delete version (" + arg + ") of " + bucket + "/" + key;
            case TAG -> "tag " + arg + " of " + bucket + "/" + key;
            case HOLD -> "legal hold on (" + arg + ") " + bucket + "/" + key;
            case RELEASE -> "legal hold off (" + arg + ") " + bucket + "/" + key;
            case RETAIN -> "retention " + number + " ms on (" + arg + ") " + bucket + "/" + key;
            case VERSIONING -> "versioning " + arg + " on " + bucket;
            case RULES -> "lifecycle configuration of " + bucket + ": " + RuleCatalog.summary(arg);
            case REMOVE_RULES -> "lifecycle configuration of " + bucket + " removed";
            case UPLOAD -> "multipart upload to " + bucket + "/" + key + " begun, one part of " + number + " bytes";
            case COMPLETE_UPLOAD -> "oldest open multipart upload to " + bucket + "/" + key + " completed";
            case ABORT_UPLOAD -> "oldest open multipart upload to " + bucket + "/" + key + " aborted";
            case WAIT -> "wait " + number + " ms";
            case RESTART_SERVICE -> "fault: restart " + arg + ", down " + number + " ms";
            case FILER_UNAVAILABLE -> "fault: filer and gateway UNAVAILABLE 30 % for " + number + " ms";
            case FILER_SLOW -> "fault: filer and gateway slow (" + arg + " ms) for " + number + " ms";
            case GATEWAY_RETRY_LATER -> "fault: gateway answers RETRY_LATER for " + bucket + "/" + key + " for "
                    + number + " ms";
            case GATEWAY_BLOCKED -> "fault: gateway answers BLOCKED for " + bucket + "/" + key + " for " + number
                    + " ms, then the dead letters are replayed";
            case GATEWAY_UNKNOWN -> "fault: gateway fails the next " + number + " LifecycleDelete calls with UNKNOWN";
            case DLQ_REPLAY -> "fault: tidemark dlq replay";
            case CLOCK_SKEW -> "fault: clock of " + skewedInstance() + " set " + signed(skewMillis()) + " ms off for "
                    + number + " ms";
            case KAFKA_RESTART -> "fault: Kafka stopped, down " + number + " ms, started again";
            case ZOOKEEPER_RESTART -> "fault: ZooKeeper stopped and started again";
            case FILER_STOP -> "fault: filer " + filer() + " stopped, down " + number + " ms, started again";
            case FILER_CLOCK_SKEW -> "fault: clock of filer " + filer() + " set " + signed(skewMillis()) + " ms off for "
                    + number + " ms";
            case FILER_STREAM_LATE -> "fault: filer " + filer() + "'s own meta-log stream delivered " + skewMillis()
                    + " ms after its stamps for " + number + " ms";
            case RENAME_RULES -> "lifecycle configuration of " + bucket + " put again, its rules renamed and reordered ("
                    + number + ")";
            case HOLD_LIFTED -> "legal hold on (" + arg + ") " + bucket + "/" + key + ", lifted " + number + " ms later";
            case CORRUPT_TIMER -> "fault: replay-streams stopped, one armed timer's bytes made unreadable in its "
                    + "changelog (" + number + "), started again";
            case LISTINGS_LATE -> "fault: the filer's listings" + (key.isEmpty() ? "" : " of " + bucket + "/" + key)
                    + " answered " + arg + " ms after they are read, for " + number + " ms";
            case LISTINGS_FAIL -> "fault: the filer fails every listing with INTERNAL for " + number + " ms";
            case WALK_STATES_REFUSED -> "fault: ZooKeeper refuses every write of a walk state for " + number + " ms";
            case CONDUCTOR_PAUSED -> "fault: no conductor pass (its cron not running) for " + number + " ms";
        };
        return String.format(Locale.ROOT, "#%d %s", index, what);
    }
}
