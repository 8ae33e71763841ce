package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.messages.ObjectTask;
import io.tidemark.objectprocessor.TaskDecoder.Invalid;
import io.tidemark.objectprocessor.TaskDecoder.Valid;
import io.tidemark.seaweed.pb.S3LifecycleProto.ActionKind;
import io.tidemark.topics.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class TaskDecoderTest {

    private static final ObjectTask.ExpectedIdentity IDENTITY =
            new ObjectTask.ExpectedIdentity(1_700_000_000_123_456_789L, 42, "3,01637037d6", "00ff10");
    private final JsonSerde<ObjectTask> serde = new JsonSerde<>(ObjectTask.class);
    private final TaskDecoder decoder = new TaskDecoder(serde.deserializer());

    private static ObjectTask task(String kind, String path, String versionId, ObjectTask.ExpectedIdentity identity) {
        return new ObjectTask("a1", "expire", kind, new ObjectTask.Target("b", path, versionId),
                new ObjectTask.Details(identity, "rule", "0102030405060708", Instant.EPOCH, "replay", null));
    }

    private TaskDecoder.Decoded roundTrip(ObjectTask task) {
        return decoder.decode("t", serde.serializer().serialize("t", task));
    }

    @Test
    void shouldBuildTheRequestWithTheIdentityTheDecisionWasMadeOn() {
        Valid valid = (Valid) roundTrip(task("NONCURRENT_DAYS", "k", "v1", IDENTITY));
        assertThat(valid.request().getBucket()).isEqualTo("b");
        assertThat(valid.request().getObjectPath()).isEqualTo("k");
        assertThat(valid.request().getVersionId()).isEqualTo("v1");
        assertThat(valid.request().getActionKind()).isEqualTo(ActionKind.NONCURRENT_DAYS);
        assertThat(valid.request().getRuleHash().toByteArray()).isEqualTo(HexFormat.of().parseHex("0102030405060708"));
        assertThat(valid.request().getExpectedIdentity().getMtimeNs()).isEqualTo(1_700_000_000_123_456_789L);
        assertThat(valid.request().getExpectedIdentity().getSize()).isEqualTo(42);
        assertThat(valid.request().getExpectedIdentity().getHeadFid()).isEqualTo("3,01637037d6");
        assertThat(valid.request().getExpectedIdentity().getExtendedHash().toByteArray())
                .isEqualTo(new byte[] {0, (byte) 0xff, 0x10});
    }

    @Test
    void shouldSendAnExpirationWithoutAVersionId() {
        Valid valid = (Valid) roundTrip(task("EXPIRATION_DAYS", "k", "", IDENTITY));
        assertThat(valid.request().getVersionId()).isEmpty();
        assertThat(valid.request().hasExpectedIdentity()).isTrue();
    }

    @Test
    void shouldRefuseAnExpirationThatNamesAVersion() {
        assertThat(roundTrip(task("EXPIRATION_DATE", "k", "v1", IDENTITY)))
                .isInstanceOfSatisfying(Invalid.class, i -> assertThat(i.reason()).contains("must name no version"));
    }

    @Test
    void shouldRefuseADeleteWithoutTheIdentityItWasDecidedOn() {
        assertThat(roundTrip(task("EXPIRATION_DAYS", "k", "", null)))
                .isInstanceOfSatisfying(Invalid.class, i -> assertThat(i.reason()).contains("no expected identity"));
        assertThat(roundTrip(task("EXPIRED_DELETE_MARKER", "k", "v1", null))).isInstanceOf(Invalid.class);
    }

    @Test
    void shouldAcceptAnUploadAbortWithoutIdentityBecauseItsPathNamesItUniquely() {
        assertThat(roundTrip(task("ABORT_MPU", ".uploads/u1", "", null))).isInstanceOf(Valid.class);
    }

    @Test
    void shouldRefuseAVersionKindWithoutAVersion() {
        assertThat(roundTrip(task("NEWER_NONCURRENT", "k", "", IDENTITY)))
                .isInstanceOfSatisfying(Invalid.class, i -> assertThat(i.reason()).contains("needs the version"));
    }

    @Test
    void shouldRefuseUnknownKindsMissingTargetsAndMalformedHashes() {
        assertThat(roundTrip(task("TRANSITION", "k", "", IDENTITY)))
                .isInstanceOfSatisfying(Invalid.class, i -> assertThat(i.reason()).contains("unknown action kind"));
        assertThat(roundTrip(task("UNSPECIFIED", "k", "", IDENTITY))).isInstanceOf(Invalid.class);
        assertThat(roundTrip(task("EXPIRATION_DAYS", "", "", IDENTITY)))
                .isInstanceOfSatisfying(Invalid.class, i -> assertThat(i.reason()).contains("no bucket"));
        assertThat(roundTrip(task("EXPIRATION_DAYS", "k", "",
                new ObjectTask.ExpectedIdentity(1, 1, "", "zz")))).isInstanceOfSatisfying(Invalid.class,
                i -> assertThat(i.reason()).contains("malformed hash"));
    }

    @Test
    void shouldRefuseBytesThatAreNoTask() {
        assertThat(decoder.decode("t", "garbage".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(Invalid.class, i -> {
                    assertThat(i.task()).isNull();
                    assertThat(i.reason()).startsWith("not a readable object task");
                });
        assertThat(decoder.decode("t", null)).isInstanceOf(Invalid.class);
    }
}
