package io.tidemark.bucketprocessor;

import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.util.List;
import java.util.Optional;

/** The two filer reads a walk makes; an interface so tests count calls and entries. */
interface EntryLister {

    /** Up to {@code limit} entries of {@code directory} after {@code startAfter} (empty for the start), in name order. */
    List<Entry> list(String directory, String startAfter, int limit);

    Optional<Entry> lookup(String directory, String name);

    static EntryLister of(FilerClient filer) {
        return new EntryLister() {
            @Override
            public List<Entry> list(String directory, String startAfter, int limit) {
                return filer.listPage(directory, "", startAfter, false, limit);
            }

            @Override
            public Optional<Entry> lookup(String directory, String name) {
                return filer.lookup(directory, name);
            }
        };
    }
}
