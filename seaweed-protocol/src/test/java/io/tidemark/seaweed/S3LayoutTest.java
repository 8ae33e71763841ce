package io.tidemark.seaweed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import org.junit.jupiter.api.Test;

/** One reading of the gateway's layout, the same for the populator, the timers, the walker and the emulator. */
class S3LayoutTest {

    private static Entry withMarker(String value) {
        return Entry.newBuilder().setName("v_1").putExtended(S3Layout.DELETE_MARKER, ByteString.copyFromUtf8(value))
                .build();
    }

    @Test
    void shouldReadAFlagExactlyAsTheGatewayDoes() {
        assertThat(S3Layout.flag("true")).isTrue();
        assertThat(S3Layout.flag("TRUE")).isFalse();
        assertThat(S3Layout.flag("Enabled")).isFalse();
        assertThat(S3Layout.flag(null)).isFalse();
        assertThat(S3Entries.isDeleteMarker(withMarker("true"))).isTrue();
        // Upstream compares with == "true": anything else is no marker to the gateway, so none to Tidemark.
        assertThat(S3Entries.isDeleteMarker(withMarker("True"))).isFalse();
        assertThat(S3Entries.isDeleteMarker(Entry.newBuilder().setName("k").build())).isFalse();
    }

    @Test
    void shouldTurnObjectLockOnForEnabledOrTrueInAnyCase() {
        assertThat(S3Layout.enabled("Enabled")).isTrue();
        assertThat(S3Layout.enabled("true")).isTrue();
        assertThat(S3Layout.enabled("ENABLED")).isTrue();
        assertThat(S3Layout.enabled("Suspended")).isFalse();
        assertThat(S3Layout.enabled(null)).isFalse();
    }

    @Test
    void shouldTellVersionsDirectoriesAndVersionFilesByName() {
        assertThat(S3Layout.isVersionsDirectoryName("photo.jpg.versions")).isTrue();
        assertThat(S3Layout.isVersionsDirectoryName("/buckets/b/dir/photo.jpg.versions")).isTrue();
        assertThat(S3Layout.isVersionsDirectoryName(".versions")).isFalse();
        assertThat(S3Layout.isVersionsDirectoryName("photo.jpg")).isFalse();
        assertThat(S3Layout.objectOfVersionsDirectory("dir/photo.jpg.versions")).isEqualTo("dir/photo.jpg");
        assertThat(S3Layout.objectOfVersionsDirectory(S3Layout.versionsDirectoryName("a.versions")))
                .isEqualTo("a.versions");
        assertThat(S3Layout.isVersionFileName("v_abc")).isTrue();
        assertThat(S3Layout.isVersionFileName("abc")).isFalse();
        assertThat(S3Layout.versionIdOfFileName(S3Layout.versionFileName("0123abc"))).isEqualTo("0123abc");
        assertThatThrownBy(() -> S3Layout.versionIdOfFileName("abc")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> S3Layout.objectOfVersionsDirectory("abc"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldTellVersionIdsThatSortNewestFirstFromThoseWhoseNameSaysNothingOfAge() {
        // MaxInt64 − creation ns in the first 16 hex digits: what the gateway makes now.
        String inverted = String.format("%016x", Long.MAX_VALUE - 1_780_000_000_000_000_000L) + "0123456789abcdef";
        String oldStyle = String.format("%016x", 1_780_000_000_000_000_000L) + "0123456789abcdef";

        assertThat(S3Layout.sortsNewestFirst(inverted)).isTrue();
        assertThat(S3Layout.sortsNewestFirst(oldStyle)).isFalse();
        assertThat(S3Layout.sortsNewestFirst(S3Layout.NULL_VERSION_ID)).isFalse();
        assertThat(S3Layout.sortsNewestFirst("zz" + inverted.substring(2))).isFalse();
    }
}
