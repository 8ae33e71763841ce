/**
 * The bucket processor: walks lifecycle buckets a page per task and emits the object tasks, re-arm records and
 * continuation tasks of each page in one Kafka transaction with the consumed offset.
 */
package io.tidemark.bucketprocessor;
