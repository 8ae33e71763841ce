package io.tidemark.objectprocessor;

import com.google.protobuf.ByteString;
import io.tidemark.messages.ObjectTask;
import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.lifecycle.engine.RuleHash;
import io.tidemark.seaweed.pb.S3LifecycleProto;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import java.util.HexFormat;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Turns an {@code object-tasks} record into the {@code LifecycleDelete} request it stands for, or says why it
 * cannot be sent. The checks here are the processor's own safety rules, on top of the gateway's: a delete always
 * carries the identity it was decided on, and an expiration never names a version (the gateway would put its
 * delete marker on whatever is latest, architecture.md, invariant 1).
 */
final class TaskDecoder {

    /** What one record holds: a task ready to send, or the reason it is parked unsent. */
    sealed interface Decoded permits Valid, Invalid {
    }

    record Valid(ObjectTask task, ActionKind kind, LifecycleDeleteRequest request) implements Decoded {
    }

    /** @param task the task when the record was readable as one, else null */
    record Invalid(ObjectTask task, String reason) implements Decoded {
    }

    private final Deserializer<ObjectTask> deserializer;

    TaskDecoder(Deserializer<ObjectTask> deserializer) {
        this.deserializer = deserializer;
    }

    Decoded decode(String topic, byte[] value) {
        if (value == null || value.length == 0) {
            return new Invalid(null, "empty record");
        }
        ObjectTask task;
        try {
            task = deserializer.deserialize(topic, value);
        } catch (RuntimeException e) {
            return new Invalid(null, "not a readable object task: " + e.getMessage());
        }
        return validate(task);
    }

    static Decoded validate(ObjectTask task) {
        ObjectTask.Target target = task.target();
        if (target == null || blank(target.bucket()) || blank(target.objectPath())) {
            return new Invalid(task, "the task names no bucket and object path");
        }
        ActionKind kind;
        try {
            kind = task.kind() == null ? ActionKind.UNSPECIFIED : ActionKind.valueOf(task.kind());
        } catch (IllegalArgumentException e) {
            return new Invalid(task, "unknown action kind " + task.kind());
        }
        if (kind == ActionKind.UNSPECIFIED) {
            return new Invalid(task, "the task names no action kind");
        }
        String versionId = target.versionId() == null ? "" : target.versionId();
        boolean expiration = kind == ActionKind.EXPIRATION_DAYS || kind == ActionKind.EXPIRATION_DATE;
        if (expiration && !versionId.isEmpty()) {
            return new Invalid(task, "an expiration must name no version (the gateway checks the identity against "
                    + "the latest version), but this one names " + versionId);
        }
        if (!expiration && kind != ActionKind.ABORT_MPU && versionId.isEmpty()) {
            return new Invalid(task, kind + " needs the version it acts on");
        }
        ObjectTask.Details details = task.details();
        ObjectTask.ExpectedIdentity identity = details == null ? null : details.expectedIdentity();
        // An upload's path names it uniquely and the gateway checks no identity for it; every other delete must
        // carry the identity it was decided on, or it would remove whatever is there now.
        if (identity == null && kind != ActionKind.ABORT_MPU) {
            return new Invalid(task, "the task carries no expected identity");
        }
        LifecycleDeleteRequest.Builder request = LifecycleDeleteRequest.newBuilder()
                .setBucket(target.bucket())
                .setObjectPath(target.objectPath())
                .setVersionId(versionId)
                .setActionKind(S3LifecycleProto.ActionKind.forNumber(kind.number()));
        try {
            if (details != null && !blank(details.ruleHash())) {
                request.setRuleHash(ByteString.copyFrom(RuleHash.fromHex(details.ruleHash()).toBytes()));
            }
            if (identity != null) {
                request.setExpectedIdentity(S3LifecycleProto.EntryIdentity.newBuilder()
                        .setMtimeNs(identity.mtimeNs())
                        .setSize(identity.size())
                        .setHeadFid(identity.headFid() == null ? "" : identity.headFid())
                        .setExtendedHash(ByteString.copyFrom(HexFormat.of().parseHex(
                                identity.extendedHash() == null ? "" : identity.extendedHash()))));
            }
        } catch (IllegalArgumentException e) {
            return new Invalid(task, "malformed hash in the task: " + e.getMessage());
        }
        return new Valid(task, kind, request.build());
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
