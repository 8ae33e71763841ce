package io.tidemark.populator;

import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks that each entry's events come in the order they happened: an event that changes an entry follows the one
 * that wrote it, and one that creates an entry follows the one that removed the last there. Feed events in the order
 * they were published; what breaks the chain is listed.
 */
final class EntryOrder {

    private final Map<String, EventNotification> last = new HashMap<>();
    private final List<String> broken = new ArrayList<>();

    void next(String directory, long tsNs, EventNotification n) {
        if (n.hasOldEntry()) {
            String path = directory + "/" + n.getOldEntry().getName();
            EventNotification before = last.remove(path);
            if (before != null && (!before.hasNewEntry() || !same(before.getNewEntry(), n.getOldEntry()))) {
                broken.add(path + " at ts_ns " + tsNs + " changes an entry its predecessor did not write");
            }
        }
        if (n.hasNewEntry()) {
            String path = (n.getNewParentPath().isEmpty() ? directory : n.getNewParentPath()) + "/"
                    + n.getNewEntry().getName();
            EventNotification before = last.put(path, n);
            if (!n.hasOldEntry() && before != null && before.hasNewEntry()) {
                broken.add(path + " at ts_ns " + tsNs + " creates an entry that was still there");
            }
        }
    }

    List<String> broken() {
        return broken;
    }

    private static boolean same(Entry a, Entry b) {
        EntryIdentity x = EntryIdentity.of(a);
        EntryIdentity y = EntryIdentity.of(b);
        return x.mtimeNs() == y.mtimeNs() && x.size() == y.size() && x.headFid().equals(y.headFid())
                && Arrays.equals(x.extendedHash(), y.extendedHash());
    }
}
