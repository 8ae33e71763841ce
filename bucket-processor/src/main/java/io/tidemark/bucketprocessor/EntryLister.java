package io.tidemark.bucketprocessor;

import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.util.List;
import java.util.Optional;

/**
 * The two filer reads a walk makes; an interface so tests count calls and entries, and so a read-only walk
 * ({@code tidemark lifecycle what-if}) can pace them.
 */
public interface EntryLister {

    /** Up to {@code limit} entries of {@code directory} after {@code startAfter} (empty for the start), in name order. */
    default List<Entry> list(String directory, String startAfter, int limit) {
        return list(directory, "", startAfter, limit);
    }

    /** As {@link #list(String, String, int)}, only entries whose name starts with {@code prefix}. */
    List<Entry> list(String directory, String prefix, String startAfter, int limit);

    /** Every entry of {@code directory}, listed {@code page} at a time. */
    default List<Entry> listAll(String directory, int page) {
        List<Entry> all = new java.util.ArrayList<>();
        String after = "";
        while (true) {
            List<Entry> got = list(directory, "", after, page);
            all.addAll(got);
            if (got.size() < page) {
                return all;
            }
            after = got.get(got.size() - 1).getName();
        }
    }

    Optional<Entry> lookup(String directory, String name);

    static EntryLister of(FilerClient filer) {
        return new EntryLister() {
            @Override
            public List<Entry> list(String directory, String prefix, String startAfter, int limit) {
                return filer.listPage(directory, prefix, startAfter, false, limit);
            }

            @Override
            public Optional<Entry> lookup(String directory, String name) {
                return filer.lookup(directory, name);
            }
        };
    }
}
