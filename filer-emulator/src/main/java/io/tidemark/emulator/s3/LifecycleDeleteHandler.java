package io.tidemark.emulator.s3;

import com.google.protobuf.ByteString;
import io.tidemark.emulator.FaultInjector;
import io.tidemark.emulator.filer.FilerException;
import io.tidemark.emulator.filer.FilerPaths;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import io.tidemark.seaweed.pb.S3LifecycleProto;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The S3 gateway's {@code LifecycleDelete}, with SeaweedFS's server semantics, quirks included (each is in
 * docs/filer-emulator.md): the identity CAS (any difference in mtime, size, head chunk or extended-attribute hash
 * makes the request a no-op); any failure to read the entry answered NOOP NOT_FOUND, as upstream wraps every fetch
 * error as "not found" ({@link FaultInjector#failObjectReads}); "null" looked up at the bare path only; object lock
 * as lax as upstream's gateway (a retention needs a mode and a readable date to protect); a "still the latest" guard
 * that reads the pointer alone; a marker with a new version ID for an expiration in a Suspended bucket; the "is
 * the marker still the sole survivor" re-check; and BLOCKED for requests that can never succeed.
 */
public final class LifecycleDeleteHandler {

    private final S3Gateway gateway;
    private final FaultInjector faults;
    private final List<LifecycleActionListener> listeners = new CopyOnWriteArrayList<>();

    public LifecycleDeleteHandler(S3Gateway gateway, FaultInjector faults) {
        this.gateway = gateway;
        this.faults = faults;
    }

    /** Tells {@code listener} of every answer the gateway gives itself from now on, until the result is closed. */
    public AutoCloseable addListener(LifecycleActionListener listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    public LifecycleDeleteResponse handle(LifecycleDeleteRequest request) {
        Optional<FaultInjector.ForcedOutcome> forced = faults.forcedOutcome(request.getBucket(), request.getObjectPath());
        if (forced.isPresent()) {
            return answer(forced.get().outcome(), forced.get().reason());
        }
        if (request.getBucket().isEmpty() || request.getObjectPath().isEmpty()) {
            return answer(LifecycleDeleteOutcome.BLOCKED, "FATAL_EVENT_ERROR: empty bucket or object path");
        }
        Optional<String> malformed = malformed(request);
        if (malformed.isPresent()) {
            return answer(LifecycleDeleteOutcome.BLOCKED, "FATAL_EVENT_ERROR: " + malformed.get());
        }
        try {
            synchronized (gateway.store()) {
                LifecycleDeleteResponse response = request.getActionKind() == S3LifecycleProto.ActionKind.ABORT_MPU
                        ? abortUpload(request) : deleteObject(request);
                listeners.forEach(listener -> listener.answered(request, response));
                return response;
            }
        } catch (S3Exception e) {
            // The gateway refused the request itself (a key it does not support): asking again cannot help.
            return answer(LifecycleDeleteOutcome.BLOCKED, "FATAL_EVENT_ERROR: " + e.code() + ": " + e.getMessage());
        }
    }

    /**
     * What makes a request impossible whatever the bucket holds: an unknown kind, or a version action without a
     * version. Refused before the lookup, so that a missing object cannot turn it into a NOOP (upstream dispatches
     * on the kind only after fetching the entry; see docs/filer-emulator.md).
     */
    private static Optional<String> malformed(LifecycleDeleteRequest request) {
        return switch (request.getActionKind()) {
            case EXPIRATION_DAYS, EXPIRATION_DATE, ABORT_MPU -> Optional.empty();
            case NONCURRENT_DAYS, NEWER_NONCURRENT, EXPIRED_DELETE_MARKER -> request.getVersionId().isEmpty()
                    ? Optional.of(request.getActionKind() + " needs a version id") : Optional.empty();
            default -> Optional.of("unsupported action kind " + request.getActionKindValue());
        };
    }

    private LifecycleDeleteResponse abortUpload(LifecycleDeleteRequest request) {
        String path = request.getObjectPath();
        String prefix = S3Layout.UPLOADS_DIRECTORY + "/";
        String id = path.startsWith(prefix) ? path.substring(prefix.length()) : null;
        if (id == null || id.isEmpty() || id.equals(".") || id.equals("..") || id.contains("/")) {
            return answer(LifecycleDeleteOutcome.BLOCKED, "FATAL_EVENT_ERROR: invalid upload path " + path);
        }
        if (!gateway.bucketExists(request.getBucket())
                || gateway.store().lookup(gateway.uploadsDirectory(request.getBucket()), id).isEmpty()) {
            return answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND");
        }
        gateway.abortUpload(request.getBucket(), id);
        return answer(LifecycleDeleteOutcome.DONE, "");
    }

    private LifecycleDeleteResponse deleteObject(LifecycleDeleteRequest request) {
        String bucket = request.getBucket();
        String key = request.getObjectPath();
        if (!gateway.bucketExists(bucket)) {
            return answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "BUCKET_NOT_FOUND");
        }
        BucketVersioning versioning = gateway.versioning(bucket);
        String versionId = request.getVersionId().isEmpty() ? null : request.getVersionId();
        Optional<ObjectVersionInfo> live = faults.objectReadFails(bucket, key) ? Optional.empty()
                : fetch(bucket, key, versionId, versioning);
        if (live.isEmpty()) {
            return answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND");
        }
        if (request.hasExpectedIdentity() && !identity(live.get().entry()).equals(expected(request))) {
            return answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "STALE_IDENTITY");
        }
        if (gateway.objectLocked(bucket)) {
            Optional<String> lock = lockReason(live.get().entry(), gateway.store().clock().instant());
            if (lock.isPresent()) {
                return answer(LifecycleDeleteOutcome.SKIPPED_OBJECT_LOCK, lock.get());
            }
        }
        return switch (request.getActionKind()) {
            case EXPIRATION_DAYS, EXPIRATION_DATE -> expireCurrent(bucket, key, versioning);
            case NONCURRENT_DAYS, NEWER_NONCURRENT, EXPIRED_DELETE_MARKER -> deleteVersion(request);
            default -> answer(LifecycleDeleteOutcome.BLOCKED, "FATAL_EVENT_ERROR: unsupported action kind "
                    + request.getActionKindValue());
        };
    }

    /**
     * With a version ID that version; without one, the latest in an Enabled bucket, else the bare object. As
     * upstream, version "null" is the bare object only: a null delete marker ({@code .versions/v_null}, what a
     * delete in a Suspended bucket leaves) is never found, so every request for it answers NOT_FOUND.
     */
    private Optional<ObjectVersionInfo> fetch(String bucket, String key, String versionId, BucketVersioning versioning) {
        S3Gateway.ObjectPath p = gateway.path(bucket, key);
        if (versionId == null && versioning == BucketVersioning.ENABLED) {
            return gateway.latest(bucket, key);
        }
        if (versionId == null || versionId.equals(S3Layout.NULL_VERSION_ID)) {
            return gateway.store().lookup(p.directory(), p.name())
                    .filter(e -> !e.getIsDirectory())
                    .map(e -> new ObjectVersionInfo(S3Layout.NULL_VERSION_ID, true, S3Entries.isDeleteMarker(e),
                            p.bare(), e));
        }
        return gateway.store().lookup(p.versionsDirectory(), S3Layout.versionFileName(versionId))
                .map(e -> new ObjectVersionInfo(versionId, false, S3Entries.isDeleteMarker(e),
                        FilerPaths.join(p.versionsDirectory(), e.getName()), e));
    }

    private LifecycleDeleteResponse expireCurrent(String bucket, String key, BucketVersioning versioning) {
        if (versioning == BucketVersioning.OFF) {
            S3Gateway.ObjectPath p = gateway.path(bucket, key);
            try {
                return gateway.store().delete(p.directory(), p.name(), false, true, 0).isPresent()
                        ? answer(LifecycleDeleteOutcome.DONE, "")
                        : answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND_AT_DELETE");
            } catch (FilerException e) {
                return answer(LifecycleDeleteOutcome.RETRY_LATER, "TRANSPORT_ERROR: " + e.getMessage());
            }
        }
        // Enabled: a delete marker on top. Suspended: the null version goes, then — unlike an S3 DELETE, which
        // leaves a "null" marker — a marker with a new version ID, as upstream's lifecycle path does.
        if (versioning == BucketVersioning.SUSPENDED) {
            gateway.deleteBareIfPresent(gateway.path(bucket, key));
        }
        gateway.placeDeleteMarker(bucket, key);
        return answer(LifecycleDeleteOutcome.DONE, "");
    }

    private LifecycleDeleteResponse deleteVersion(LifecycleDeleteRequest request) {
        String bucket = request.getBucket();
        String key = request.getObjectPath();
        String versionId = request.getVersionId();
        if (request.getActionKind() == S3LifecycleProto.ActionKind.EXPIRED_DELETE_MARKER) {
            Optional<LifecycleDeleteResponse> refused = checkSoleSurvivor(bucket, key, versionId);
            if (refused.isPresent()) {
                return refused.get();
            }
        } else {
            // Upstream's guard reads the pointer alone: no .versions directory is NOT_FOUND, a missing pointer (the
            // null version current) means "not latest". The pipeline must not ask for a current null version.
            S3Gateway.ObjectPath p = gateway.path(bucket, key);
            Optional<Entry> directory = gateway.store().lookup(p.directory(), S3Layout.versionsDirectoryName(p.name()))
                    .filter(Entry::getIsDirectory);
            if (directory.isEmpty()) {
                return answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND");
            }
            if (S3Gateway.text(directory.get(), S3Layout.LATEST_VERSION_ID).orElse("").equals(versionId)) {
                return answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "VERSION_IS_LATEST");
            }
        }
        return gateway.deleteVersion(bucket, key, versionId)
                ? answer(LifecycleDeleteOutcome.DONE, "")
                : answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND_AT_DELETE");
    }

    /** An expired delete marker may only go while it is still the one and only version of its key. */
    private Optional<LifecycleDeleteResponse> checkSoleSurvivor(String bucket, String key, String versionId) {
        S3Gateway.ObjectPath p = gateway.path(bucket, key);
        FilerStore store = gateway.store();
        List<Entry> versions = store.list(p.versionsDirectory(), S3Layout.VERSION_FILE_PREFIX, "", false, 2);
        if (store.lookup(p.directory(), p.name()).filter(e -> !e.getIsDirectory()).isPresent()) {
            return Optional.of(answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NULL_VERSION_PRESENT"));
        }
        if (versions.isEmpty()) {
            return Optional.of(answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND"));
        }
        if (versions.size() > 1) {
            return Optional.of(answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_SOLE_SURVIVOR"));
        }
        Entry survivor = versions.get(0);
        if (!S3Entries.isDeleteMarker(survivor) || !survivor.getName().equals(S3Layout.versionFileName(versionId))) {
            return Optional.of(answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "MARKER_REPLACED"));
        }
        Optional<String> pointer = store.lookup(p.directory(), S3Layout.versionsDirectoryName(p.name()))
                .flatMap(d -> S3Gateway.text(d, S3Layout.LATEST_VERSION_ID));
        if (pointer.isEmpty()) {
            // The marker is written before the pointer flips: this is a write still in progress.
            return Optional.of(answer(LifecycleDeleteOutcome.RETRY_LATER, "PENDING_LATEST_POINTER"));
        }
        if (!pointer.get().equals(versionId)) {
            return Optional.of(store.lookup(p.versionsDirectory(), S3Layout.versionFileName(pointer.get())).isEmpty()
                    ? answer(LifecycleDeleteOutcome.RETRY_LATER, "PENDING_SURVIVOR_ENTRY")
                    : answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "MARKER_NOT_LATEST"));
        }
        return Optional.empty();
    }

    /** The identity of a live entry, computed exactly as the worker computes the expected one. */
    public static EntryIdentity identity(Entry entry) {
        return EntryIdentity.of(entry);
    }

    private static EntryIdentity expected(LifecycleDeleteRequest request) {
        S3LifecycleProto.EntryIdentity e = request.getExpectedIdentity();
        return new EntryIdentity(e.getMtimeNs(), e.getSize(), e.getHeadFid(), e.getExtendedHash().toByteArray());
    }

    /**
     * Why object lock protects this version now, if it does, as upstream's gateway judges it: a legal hold of
     * exactly "ON", or a retention in GOVERNANCE or COMPLIANCE mode (never bypassed here) with a readable date in the
     * future. Upstream fails open: a retention without a mode, or with a date it cannot parse, protects nothing —
     * the pipeline's own check must refuse those before it asks.
     */
    static Optional<String> lockReason(Entry entry, Instant now) {
        ByteString hold = entry.getExtendedMap().get(S3Layout.LEGAL_HOLD);
        if (hold != null && hold.toStringUtf8().equals("ON")) {
            return Optional.of("object is under legal hold");
        }
        ByteString mode = entry.getExtendedMap().get(S3Layout.LOCK_MODE);
        ByteString until = entry.getExtendedMap().get(S3Layout.RETAIN_UNTIL);
        if (mode == null || until == null
                || !(mode.toStringUtf8().equals("GOVERNANCE") || mode.toStringUtf8().equals("COMPLIANCE"))) {
            return Optional.empty();
        }
        try {
            long seconds = Long.parseLong(until.toStringUtf8());
            return seconds > now.getEpochSecond()
                    ? Optional.of("object is retained until " + Instant.ofEpochSecond(seconds)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static LifecycleDeleteResponse answer(LifecycleDeleteOutcome outcome, String reason) {
        return LifecycleDeleteResponse.newBuilder().setOutcome(outcome).setReason(reason).build();
    }
}
