package io.tidemark.cli.lifecycle;

/**
 * A listed entry a rule can act on: an object version or a multipart upload.
 *
 * @param versionId {@code null} in an unversioned bucket and for uploads
 * @param uploadId  the upload's ID for an upload, else {@code null}
 * @param bytes     the version's size; 0 for an upload, whose parts a walk never lists
 */
record Subject(String key, String versionId, String uploadId, long bytes) {

    WhatIfReport.Sample sample(FirstAction action, String ruleId) {
        return new WhatIfReport.Sample(key, versionId, uploadId, ruleId, action.match().action().wireName(),
                action.match().dueAt(), action.held(), bytes);
    }
}
