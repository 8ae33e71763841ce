package io.tidemark.replay;

import io.tidemark.messages.BucketConfig;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A stream task's view of the global bucket-configs store. Each lookup reads the bucket's current bytes (so an edit
 * is seen at once) but decodes them only when they differ from the bytes it decoded last for that bucket.
 */
final class BucketConfigs {

    private static final int CAPACITY = 1_024;

    private record Decoded(byte[] raw, BucketConfig config) {
    }

    private final KeyValueStore<String, byte[]> store;
    private final Deserializer<BucketConfig> deserializer;
    private final Map<String, Decoded> decoded = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Decoded> eldest) {
            return size() > CAPACITY;
        }
    };

    BucketConfigs(KeyValueStore<String, byte[]> store, Deserializer<BucketConfig> deserializer) {
        this.store = store;
        this.deserializer = deserializer;
    }

    /** Whether the bucket has a configuration now (its bytes are not decoded). */
    boolean has(String bucket) {
        return !bucket.isEmpty() && store.get(bucket) != null;
    }

    /** The bucket's configuration now, or null when it has none. */
    BucketConfig get(String bucket) {
        if (bucket.isEmpty()) {
            return null;
        }
        byte[] raw = store.get(bucket);
        if (raw == null) {
            decoded.remove(bucket);
            return null;
        }
        Decoded last = decoded.get(bucket);
        if (last == null || !Arrays.equals(last.raw(), raw)) {
            last = new Decoded(raw, deserializer.deserialize(ReplayTopology.BUCKET_CONFIGS_STORE, raw));
            decoded.put(bucket, last);
        }
        return last.config();
    }
}
