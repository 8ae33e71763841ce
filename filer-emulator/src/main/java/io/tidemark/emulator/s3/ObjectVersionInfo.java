package io.tidemark.emulator.s3;

import io.tidemark.seaweed.pb.FilerProto.Entry;

/**
 * One version of a key as the emulated gateway sees it.
 *
 * @param path the filer path of the entry holding it
 */
public record ObjectVersionInfo(String versionId, boolean latest, boolean deleteMarker, String path, Entry entry) {
}
