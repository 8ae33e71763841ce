/**
 * The S3 bucket lifecycle configuration as a user writes it: immutable records of the
 * PutBucketLifecycleConfiguration document, a hardened parser that enforces S3's schema, a validator
 * that applies S3's semantic rules with S3's error codes, and a writer for the canonical form.
 */
package io.tidemark.lifecycle.config;
