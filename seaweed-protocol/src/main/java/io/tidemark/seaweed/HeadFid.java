package io.tidemark.seaweed;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * The {@code head_fid} of an entry identity: the first chunk's file id string. Newer entries (and every
 * meta-log event) carry only the structured {@code FileId}, which SeaweedFS renders as
 * {@code "<volume>,<hex>"} where the hex is the 8-byte key and the 4-byte cookie, big-endian, with the key's
 * leading zero bytes dropped.
 */
public final class HeadFid {

    private HeadFid() {
    }

    /**
     * @param legacyFileId the deprecated string {@code file_id} of the first chunk, or empty
     */
    public static String of(String legacyFileId, int volumeId, long fileKey, int cookie) {
        if (legacyFileId != null && !legacyFileId.isEmpty()) {
            return legacyFileId;
        }
        return fromFid(volumeId, fileKey, cookie);
    }

    public static String fromFid(int volumeId, long fileKey, int cookie) {
        byte[] raw = ByteBuffer.allocate(12).putLong(fileKey).putInt(cookie).array();
        int start = 0;
        while (start < Long.BYTES && raw[start] == 0) {
            start++;
        }
        return Integer.toUnsignedString(volumeId) + "," + HexFormat.of().formatHex(raw, start, raw.length);
    }
}
