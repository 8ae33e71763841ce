package io.tidemark.lifecycle.config;

/** The S3 error codes a PutBucketLifecycleConfiguration can be rejected with (all HTTP 400). */
public enum S3ErrorCode {
    /** Not well-formed, or not valid against S3's schema: unknown or repeated elements, wrong types. */
    MalformedXML,
    /** A value outside its allowed range, such as a day count below one. */
    InvalidArgument,
    /** A combination S3 does not allow, such as a tag filter on a multipart-abort rule. */
    InvalidRequest
}
