package io.tidemark.bucketprocessor;

import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What one page of a walk produces: object tasks and re-arm records, and what it saw on the way. */
final class PageOutput {

    /** An object task and the partition (the object's ShardID) it goes to. */
    record Addressed<T>(int partition, String key, T value) {
    }

    final List<Addressed<ObjectTask>> tasks = new ArrayList<>();
    final List<Addressed<MetaLogRecord>> rearms = new ArrayList<>();
    final Map<String, Long> tasksByKind = new TreeMap<>();
    /** Entries that matched a due rule but are protected by object lock now; nothing is sent for them. */
    long locked;
    /** Entries that do not fit the S3 layout (a file where an upload directory belongs, a stray name in .versions). */
    long anomalies;
    /** Null delete markers ({@code .versions/v_null}): no request can remove them, so none is sent. */
    long nullMarkers;
    /** Entries the filer returned for this page. */
    long listed;
    /** Entries evaluated (or stepped over) in this page. */
    long handled;
    /** Entries listed but left for the next page, which lists them again. */
    long relisted;
    /** ListEntries and LookupDirectoryEntry calls made. */
    long listCalls;
    long lookupCalls;

    void task(int partition, String key, ObjectTask task) {
        tasks.add(new Addressed<>(partition, key, task));
        tasksByKind.merge(task.kind(), 1L, Long::sum);
    }

    void rearm(int partition, String key, MetaLogRecord record) {
        rearms.add(new Addressed<>(partition, key, record));
    }
}
