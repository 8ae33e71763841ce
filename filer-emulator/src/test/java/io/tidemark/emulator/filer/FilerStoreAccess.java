package io.tidemark.emulator.filer;

import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.util.ArrayList;
import java.util.List;

/** Lets tests in other packages read a store's whole meta-log. */
public final class FilerStoreAccess {

    private FilerStoreAccess() {
    }

    public static List<SubscribeMetadataResponse> events(FilerStore store) {
        MetaLog log = store.metaLog();
        List<SubscribeMetadataResponse> all = new ArrayList<>();
        for (int i = 0; i < log.size(); i++) {
            all.add(log.get(i));
        }
        return all;
    }
}
