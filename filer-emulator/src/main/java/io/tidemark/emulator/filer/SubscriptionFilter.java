package io.tidemark.emulator.filer;

import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataRequest;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Which events a subscriber asked for. Like SeaweedFS: an event matches a path prefix when the full path of
 * its entry (the old one, else the new one) starts with it, or, for a move, when the new full path does; it
 * matches a watched directory when its directory is exactly that one. No prefix and no directory: everything.
 */
final class SubscriptionFilter {

    private final List<String> prefixes = new ArrayList<>();
    private final List<String> directories;

    SubscriptionFilter(SubscribeMetadataRequest request) {
        if (!request.getPathPrefix().isEmpty()) {
            prefixes.add(request.getPathPrefix());
        }
        prefixes.addAll(request.getPathPrefixesList());
        directories = request.getDirectoriesList();
    }

    boolean matches(SubscribeMetadataResponse event) {
        if (prefixes.isEmpty() && directories.isEmpty()) {
            return true;
        }
        if (directories.contains(event.getDirectory())) {
            return true;
        }
        EventNotification n = event.getEventNotification();
        String name = n.hasOldEntry() ? n.getOldEntry().getName() : n.getNewEntry().getName();
        String path = FilerPaths.join(event.getDirectory(), name);
        String newPath = n.hasNewEntry() && !n.getNewParentPath().isEmpty()
                ? FilerPaths.join(n.getNewParentPath(), n.getNewEntry().getName()) : null;
        for (String prefix : prefixes) {
            if (path.startsWith(prefix) || (newPath != null && newPath.startsWith(prefix))) {
                return true;
            }
        }
        return false;
    }
}
