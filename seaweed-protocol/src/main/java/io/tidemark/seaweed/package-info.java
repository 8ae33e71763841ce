/**
 * How SeaweedFS lays out S3 objects on the filer, and byte-exact re-implementations of the identifiers its
 * lifecycle code computes from an entry: the shard of an object, the extended-attribute hash and the head file
 * id of an entry's identity. Tidemark and a SeaweedFS gateway must agree on these to the bit, so each one has
 * golden-byte tests. (The rule hash, the replay cursor hashes and the {@code ActionKind} numbering belong to the
 * rules engine, {@code io.tidemark.lifecycle.engine}.)
 */
package io.tidemark.seaweed;
