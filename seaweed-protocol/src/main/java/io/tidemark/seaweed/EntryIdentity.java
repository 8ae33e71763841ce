package io.tidemark.seaweed;

import io.tidemark.seaweed.pb.FilerProto;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;

/**
 * What an entry looked like when a lifecycle decision was made about it. The gateway deletes only if the
 * live entry still has exactly this identity, so a decision can never act on an object that was replaced,
 * re-tagged or otherwise changed after it was made.
 *
 * @param mtimeNs      modification time in nanoseconds since the epoch ({@code mtime * 1e9 + mtime_ns})
 * @param headFid      the first chunk's file id, or empty for an entry without chunks
 * @param extendedHash {@link ExtendedHash} of the entry's extended attributes (empty when it has none)
 */
public record EntryIdentity(long mtimeNs, long size, String headFid, byte[] extendedHash) {

    public EntryIdentity {
        Objects.requireNonNull(headFid, "headFid");
        extendedHash = extendedHash.clone();
    }

    public static EntryIdentity of(long mtimeSeconds, int mtimeNanos, long size, String headFid,
                                   Map<String, byte[]> extended) {
        return new EntryIdentity(Math.addExact(Math.multiplyExact(mtimeSeconds, 1_000_000_000L), mtimeNanos),
                size, headFid, ExtendedHash.of(extended));
    }

    /** The identity of a filer entry, computed exactly as the SeaweedFS worker computes the expected one. */
    public static EntryIdentity of(FilerProto.Entry entry) {
        Map<String, byte[]> extended = new HashMap<>();
        entry.getExtendedMap().forEach((k, v) -> extended.put(k, v.toByteArray()));
        String headFid = "";
        if (entry.getChunksCount() > 0) {
            FilerProto.FileChunk head = entry.getChunks(0);
            headFid = HeadFid.of(head.getFileId(), head.getFid().getVolumeId(), head.getFid().getFileKey(),
                    head.getFid().getCookie());
        }
        return of(entry.getAttributes().getMtime(), entry.getAttributes().getMtimeNs(),
                entry.getAttributes().getFileSize(), headFid, extended);
    }

    @Override
    public byte[] extendedHash() {
        return extendedHash.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EntryIdentity other
                && mtimeNs == other.mtimeNs
                && size == other.size
                && headFid.equals(other.headFid)
                && Arrays.equals(extendedHash, other.extendedHash);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mtimeNs, size, headFid, Arrays.hashCode(extendedHash));
    }

    @Override
    public String toString() {
        return "EntryIdentity[mtimeNs=" + mtimeNs + ", size=" + size + ", headFid=" + headFid
                + ", extendedHash=" + HexFormat.of().formatHex(extendedHash) + "]";
    }
}
