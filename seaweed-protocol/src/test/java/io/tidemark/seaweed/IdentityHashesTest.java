package io.tidemark.seaweed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IdentityHashesTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldMatchSeaweedGoldenForExtendedHash() {
        byte[] hash = ExtendedHash.of(Map.of("Seaweed-X-Amz-ETag", utf8("d41d8cd98f00b204e9800998ecf8427e")));
        assertThat(HexFormat.of().formatHex(hash))
                .isEqualTo("2425fd1033f48d5add7d37283d3942ad1199037746e9c6b5aab5870e520e6a00");
    }

    @Test
    void shouldSortExtendedKeysByUtf8BytesNotUtf16Units() {
        // U+1F600 sorts before U+FF21 in UTF-16 (surrogates) but after it in UTF-8, as Go sorts.
        Map<String, byte[]> ext = new LinkedHashMap<>();
        ext.put("\uff21", utf8("y"));
        ext.put("\ud83d\ude00", utf8("x"));
        ext.put("é", new byte[0]);
        ext.put("Seaweed-X-Amz-ETag", utf8("abc"));
        ext.put("X-Amz-Tagging-env", utf8("prod"));
        assertThat(HexFormat.of().formatHex(ExtendedHash.of(ext)))
                .isEqualTo("55335fad98a1926017de363fd6c96f4cf6925b6c23ebaddd880b72cc39e0aa94");
    }

    @Test
    void shouldGiveEmptyBytesForNoExtendedAttributes() {
        assertThat(ExtendedHash.of(Map.of())).isEmpty();
    }

    @Test
    void shouldBuildHeadFidFromStructuredFileId() {
        assertThat(HeadFid.fromFid(3, 0x01637037d6L, 0x12345678)).isEqualTo("3,01637037d612345678");
        assertThat(HeadFid.fromFid(7, 0, 0xdeadbeef)).isEqualTo("7,deadbeef");
        assertThat(HeadFid.fromFid(1, 0x1122334455667788L, 1)).isEqualTo("1,112233445566778800000001");
    }

    @Test
    void shouldPreferTheLegacyFileIdString() {
        assertThat(HeadFid.of("5,abc", 3, 1, 1)).isEqualTo("5,abc");
        assertThat(HeadFid.of("", 3, 0x01637037d6L, 0x12345678)).isEqualTo("3,01637037d612345678");
    }

    @Test
    void shouldCombineSecondsAndNanosIntoIdentityMtime() {
        EntryIdentity id = EntryIdentity.of(1_700_000_000L, 250, 42, "1,abc", Map.of());
        assertThat(id.mtimeNs()).isEqualTo(1_700_000_000_000_000_250L);
        assertThat(id).isEqualTo(new EntryIdentity(1_700_000_000_000_000_250L, 42, "1,abc", new byte[0]));
        assertThat(id).isNotEqualTo(new EntryIdentity(1_700_000_000_000_000_250L, 43, "1,abc", new byte[0]));
    }
}
