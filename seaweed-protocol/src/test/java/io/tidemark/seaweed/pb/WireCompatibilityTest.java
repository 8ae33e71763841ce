package io.tidemark.seaweed.pb;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.tidemark.seaweed.pb.FilerProto.FileId;
import io.tidemark.seaweed.pb.FilerProto.FuseAttributes;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.seaweed.pb.S3LifecycleProto.EntryIdentity;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tidemark's .proto files must stay wire-identical to SeaweedFS's. Every field is checked against the upstream
 * table (name, number, type, repeated or not), every enum value against its number, every RPC against its full
 * name; a few messages are also checked byte for byte.
 */
class WireCompatibilityTest {

    /** Upstream's fields: message, then name:number:type with "*" for repeated. */
    private static final String FILER = """
            Entry name:1:string is_directory:2:bool chunks:3:message* attributes:4:message extended:5:message* \
            hard_link_id:7:bytes hard_link_counter:8:int32 content:9:bytes remote_entry:10:message quota:11:int64 \
            worm_enforced_at_ts_ns:12:int64
            FuseAttributes file_size:1:uint64 mtime:2:int64 file_mode:3:uint32 uid:4:uint32 gid:5:uint32 crtime:6:int64 \
            mime:7:string ttl_sec:10:int32 user_name:11:string group_name:12:string* symlink_target:13:string md5:14:bytes \
            rdev:16:uint32 inode:17:uint64 ctime:18:int64 mtime_ns:19:int32 ctime_ns:20:int32 crtime_ns:21:int32 \
            atime:22:int64 atime_ns:23:int32
            FileChunk file_id:1:string offset:2:int64 size:3:uint64 modified_ts_ns:4:int64 e_tag:5:string \
            source_file_id:6:string fid:7:message source_fid:8:message cipher_key:9:bytes is_compressed:10:bool \
            is_chunk_manifest:11:bool
            FileId volume_id:1:uint32 file_key:2:uint64 cookie:3:fixed32
            RemoteEntry storage_name:1:string last_local_sync_ts_ns:2:int64 remote_e_tag:3:string remote_mtime:4:int64 \
            remote_size:5:int64
            EventNotification old_entry:1:message new_entry:2:message delete_chunks:3:bool new_parent_path:4:string \
            is_from_other_cluster:5:bool signatures:6:int32*
            SubscribeMetadataRequest client_name:1:string path_prefix:2:string since_ns:3:int64 signature:4:int32 \
            path_prefixes:6:string* client_id:7:int32 until_ns:8:int64 client_epoch:9:int32 directories:10:string* \
            client_supports_batching:11:bool client_supports_metadata_chunks:12:bool client_supports_idle_heartbeat:13:bool
            SubscribeMetadataResponse directory:1:string event_notification:2:message ts_ns:3:int64 events:4:message* \
            flushed_ts_ns:6:int64
            ListEntriesRequest directory:1:string prefix:2:string startFromFileName:3:string inclusiveStartFrom:4:bool \
            limit:5:uint32 snapshot_ts_ns:6:int64 omit_chunks:7:bool
            ListEntriesResponse entry:1:message snapshot_ts_ns:2:int64
            LookupDirectoryEntryRequest directory:1:string name:2:string
            LookupDirectoryEntryResponse entry:1:message log_ts_ns:2:int64 log_signature:3:int32
            CreateEntryRequest directory:1:string entry:2:message o_excl:3:bool is_from_other_cluster:4:bool \
            signatures:5:int32* skip_check_parent_directory:6:bool
            CreateEntryResponse error:1:string metadata_event:2:message error_code:3:enum log_ts_ns:4:int64 \
            log_signature:5:int32
            UpdateEntryRequest directory:1:string entry:2:message is_from_other_cluster:3:bool signatures:4:int32* \
            expected_extended:5:message*
            UpdateEntryResponse metadata_event:1:message log_ts_ns:2:int64 log_signature:3:int32
            DeleteEntryRequest directory:1:string name:2:string is_delete_data:4:bool is_recursive:5:bool \
            ignore_recursive_error:6:bool is_from_other_cluster:7:bool signatures:8:int32* if_not_modified_after:9:int64
            DeleteEntryResponse error:1:string metadata_event:2:message
            PingRequest target:1:string target_type:2:string
            PingResponse start_time_ns:1:int64 remote_time_ns:2:int64 stop_time_ns:3:int64
            GetFilerConfigurationRequest
            GetFilerConfigurationResponse masters:1:string* replication:2:string collection:3:string max_mb:4:uint32 \
            dir_buckets:5:string cipher:7:bool signature:8:int32 metrics_address:9:string metrics_interval_sec:10:int32 \
            version:11:string cluster_id:12:string filer_group:13:string major_version:14:int32 minor_version:15:int32
            """;

    private static final String LIFECYCLE = """
            EntryIdentity mtime_ns:1:int64 size:2:int64 head_fid:3:string extended_hash:4:bytes
            LifecycleDeleteRequest bucket:1:string object_path:2:string version_id:3:string rule_hash:4:bytes \
            action_kind:5:enum expected_identity:20:message engine_snapshot_id:21:uint64
            LifecycleDeleteResponse outcome:1:enum reason:2:string
            """;

    private static final String MASTER = """
            ListClusterNodesRequest client_type:1:string filer_group:2:string limit:4:int32
            ListClusterNodesResponse cluster_nodes:1:message*
            ListClusterNodesResponse.ClusterNode address:1:string version:2:string created_at_ns:4:int64 \
            data_center:5:string rack:6:string
            """;

    record Spec(FileDescriptor file, String message, List<String> fields) {
        @Override
        public String toString() {
            return file.getPackage() + "." + message;
        }
    }

    static Stream<Spec> messages() {
        List<Spec> specs = new ArrayList<>();
        for (String line : FILER.strip().split("\n")) {
            String[] parts = line.strip().split("\\s+");
            specs.add(new Spec(FilerProto.getDescriptor(), parts[0], List.of(parts).subList(1, parts.length)));
        }
        for (String line : LIFECYCLE.strip().split("\n")) {
            String[] parts = line.strip().split("\\s+");
            specs.add(new Spec(S3LifecycleProto.getDescriptor(), parts[0], List.of(parts).subList(1, parts.length)));
        }
        for (String line : MASTER.strip().split("\n")) {
            String[] parts = line.strip().split("\\s+");
            specs.add(new Spec(MasterProto.getDescriptor(), parts[0], List.of(parts).subList(1, parts.length)));
        }
        return specs.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void shouldDeclareEveryFieldWithUpstreamsNumberAndType(Spec spec) {
        Descriptor message = find(spec.file(), spec.message());
        assertThat(message).as(spec.message()).isNotNull();
        List<String> declared = new ArrayList<>();
        for (FieldDescriptor f : message.getFields()) {
            declared.add(f.getName() + ":" + f.getNumber() + ":" + f.getType().name().toLowerCase()
                    + (f.isRepeated() ? "*" : ""));
        }
        assertThat(declared).containsExactlyInAnyOrderElementsOf(spec.fields());
    }

    @Test
    void shouldUseUpstreamsPackagesServicesAndMethods() {
        assertThat(FilerProto.getDescriptor().getPackage()).isEqualTo("filer_pb");
        assertThat(S3LifecycleProto.getDescriptor().getPackage()).isEqualTo("s3_lifecycle_pb");
        assertThat(SeaweedFilerGrpc.getSubscribeMetadataMethod().getFullMethodName())
                .isEqualTo("filer_pb.SeaweedFiler/SubscribeMetadata");
        assertThat(SeaweedFilerGrpc.getListEntriesMethod().getFullMethodName()).isEqualTo("filer_pb.SeaweedFiler/ListEntries");
        assertThat(SeaweedFilerGrpc.getLookupDirectoryEntryMethod().getFullMethodName())
                .isEqualTo("filer_pb.SeaweedFiler/LookupDirectoryEntry");
        assertThat(SeaweedFilerGrpc.getGetFilerConfigurationMethod().getFullMethodName())
                .isEqualTo("filer_pb.SeaweedFiler/GetFilerConfiguration");
        assertThat(SeaweedS3LifecycleInternalGrpc.getLifecycleDeleteMethod().getFullMethodName())
                .isEqualTo("s3_lifecycle_pb.SeaweedS3LifecycleInternal/LifecycleDelete");
        assertThat(MasterProto.getDescriptor().getPackage()).isEqualTo("master_pb");
        assertThat(SeaweedGrpc.getListClusterNodesMethod().getFullMethodName())
                .isEqualTo("master_pb.Seaweed/ListClusterNodes");
    }

    @Test
    void shouldNumberEnumValuesAsUpstreamDoes() {
        assertThat(values(S3LifecycleProto.ActionKind.getDescriptor())).containsExactly("ACTION_KIND_UNSPECIFIED=0",
                "EXPIRATION_DAYS=1", "EXPIRATION_DATE=2", "NONCURRENT_DAYS=3", "NEWER_NONCURRENT=4", "ABORT_MPU=5",
                "EXPIRED_DELETE_MARKER=6");
        assertThat(values(S3LifecycleProto.LifecycleDeleteOutcome.getDescriptor())).containsExactly(
                "LIFECYCLE_DELETE_OUTCOME_UNSPECIFIED=0", "DONE=1", "NOOP_RESOLVED=2", "SKIPPED_OBJECT_LOCK=3",
                "RETRY_LATER=4", "BLOCKED=5");
        assertThat(values(FilerProto.FilerError.getDescriptor())).containsExactly("OK=0", "ENTRY_NAME_TOO_LONG=1",
                "PARENT_IS_FILE=2", "EXISTING_IS_DIRECTORY=3", "EXISTING_IS_FILE=4", "ENTRY_ALREADY_EXISTS=5",
                "PRECONDITION_FAILED=6");
    }

    @Test
    void shouldEncodeMessagesToTheExpectedBytes() {
        HexFormat hex = HexFormat.of();
        assertThat(hex.formatHex(FileId.newBuilder().setVolumeId(3).setFileKey(0x01637037d6L).setCookie(0x12345678)
                .build().toByteArray())).isEqualTo("080310d6efc09b161d78563412");
        assertThat(hex.formatHex(SubscribeMetadataResponse.newBuilder().setDirectory("/buckets/b")
                .setTsNs(1_700_000_000_000_000_000L).setFlushedTsNs(5).build().toByteArray()))
                .isEqualTo("0a0a2f6275636b6574732f62188080a8b1e39fe7cb173005");
        assertThat(hex.formatHex(LifecycleDeleteRequest.newBuilder().setBucket("b").setObjectPath("k")
                .setActionKind(S3LifecycleProto.ActionKind.EXPIRED_DELETE_MARKER)
                .setExpectedIdentity(EntryIdentity.newBuilder().setMtimeNs(1).setSize(2).setHeadFid("3,ab")
                        .setExtendedHash(ByteString.copyFrom(new byte[] {(byte) 0xff})))
                .setEngineSnapshotId(7).build().toByteArray()))
                .isEqualTo("0a016212016b2806a2010d080110021a04332c61622201ffa80107");
        // mtime_ns is an int32: a negative value is a ten-byte varint, as Go writes it.
        assertThat(hex.formatHex(FuseAttributes.newBuilder().setMtimeNs(-1).build().toByteArray()))
                .isEqualTo("9801ffffffffffffffffff01");
    }

    /** A top-level message, or a nested one written {@code Outer.Inner}. */
    private static Descriptor find(FileDescriptor file, String name) {
        String[] path = name.split("\\.");
        Descriptor message = file.findMessageTypeByName(path[0]);
        for (int i = 1; i < path.length && message != null; i++) {
            message = message.findNestedTypeByName(path[i]);
        }
        return message;
    }

    private static List<String> values(EnumDescriptor e) {
        return e.getValues().stream().map(v -> v.getName() + "=" + v.getNumber()).toList();
    }
}
