package io.tidemark.emulator.filer;

import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.util.List;

/** Lets tests in other packages read a store's whole meta-log. */
public final class FilerStoreAccess {

    private FilerStoreAccess() {
    }

    public static List<SubscribeMetadataResponse> events(FilerStore store) {
        return store.events(0);
    }
}
