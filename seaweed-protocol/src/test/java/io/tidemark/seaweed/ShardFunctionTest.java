package io.tidemark.seaweed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ShardFunctionTest {

    @ParameterizedTest(name = "{0}/{1} -> {2}")
    @CsvSource({
        "bucket, key, 0",
        "my-bucket, path/to/object.txt, 7",
        "a, b, 12",
        "bk, logs/foo.versions, 3",
        "bk, .uploads/u1, 0",
    })
    void shouldMatchSeaweedShardGoldens(String bucket, String key, int shard) {
        assertThat(ShardFunction.standard().shardOf(bucket, key)).isEqualTo(shard);
    }

    @Test
    void shouldEqualTheTopNibbleOfTheDigestWithDefaultBits() throws Exception {
        byte[] d = MessageDigest.getInstance("SHA-256").digest("photos/2024/ü.jpg".getBytes(StandardCharsets.UTF_8));
        assertThat(ShardFunction.standard().shardOf("photos", "2024/ü.jpg")).isEqualTo((d[0] & 0xFF) >>> 4);
    }

    @Test
    void shouldUseTheTopBitsForWiderShardCounts() throws Exception {
        byte[] d = MessageDigest.getInstance("SHA-256").digest("b/k".getBytes(StandardCharsets.UTF_8));
        int top10 = (((d[0] & 0xFF) << 8) | (d[1] & 0xFF)) >>> 6;
        ShardFunction tenBits = ShardFunction.withBits(10);
        assertThat(tenBits.shardOf("b", "k")).isEqualTo(top10);
        assertThat(tenBits.shardCount()).isEqualTo(1024);
        assertThat(ShardFunction.withBits(0).shardOf("b", "k")).isZero();
    }

    @Test
    void shouldRejectShardBitsOutOfRange() {
        assertThatThrownBy(() -> ShardFunction.withBits(17)).hasMessageContaining("shard.bits");
        assertThatThrownBy(() -> ShardFunction.withBits(-1)).hasMessageContaining("shard.bits");
    }
}
