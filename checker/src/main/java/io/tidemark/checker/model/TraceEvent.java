package io.tidemark.checker.model;

import io.tidemark.lifecycle.engine.BucketVersioning;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What happened during a run, in the order it happened: the checker's own changes and every action lifecycle took,
 * each with the state of the key it left (read while the store was held, so no other write came between).
 */
public sealed interface TraceEvent {

    Instant at();

    /** One version of a key as the gateway shows it, newest first in a key's list. */
    record VersionView(String versionId, boolean latest, boolean deleteMarker, Instant modTime, long size,
                       Map<String, String> tags) {

        public VersionView {
            tags = Map.copyOf(tags);
        }
    }

    /** The checker changed a key (a put, a delete, a version deleted, tags). */
    record KeyChanged(Instant at, String bucket, String key, String cause, List<VersionView> versions)
            implements TraceEvent {

        public KeyChanged {
            versions = List.copyOf(versions);
        }
    }

    /**
     * The gateway carried out a lifecycle action (outcome DONE) on a key, or on an upload ({@code key} is then the
     * upload's path, {@code .uploads/<id>}, and {@code versions} is empty).
     *
     * @param versionId the version the request named ({@code ""}: the current one)
     * @param kind      the request's action kind
     */
    record LifecycleActed(Instant at, String bucket, String key, String versionId, String kind,
                          List<VersionView> versions) implements TraceEvent {

        public LifecycleActed {
            versions = List.copyOf(versions);
        }
    }

    /**
     * A multipart upload began ({@code present}) or ended — completed or aborted by the checker, or aborted by
     * lifecycle (then a {@link LifecycleActed} comes first).
     *
     * @param initiated when the gateway says it began (its directory's modification time)
     */
    record UploadChanged(Instant at, String bucket, String uploadId, String key, Instant initiated, boolean present,
                         String cause) implements TraceEvent {
    }

    /** A bucket's versioning or lifecycle configuration changed ({@code rules} null: none). */
    record BucketChanged(Instant at, String bucket, BucketVersioning versioning, String rules, String cause)
            implements TraceEvent {
    }

    /** A version's legal hold or retention changed. */
    record LockChanged(Instant at, String bucket, String key, String versionId, boolean legalHold,
                       Instant retainUntil, String cause) implements TraceEvent {
    }

    /** A fault began or ended. */
    record Fault(Instant at, String description) implements TraceEvent {
    }
}
