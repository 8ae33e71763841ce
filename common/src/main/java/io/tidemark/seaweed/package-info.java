/**
 * Byte-exact re-implementations of the identifiers SeaweedFS's lifecycle code computes: the shard of an
 * object, the 8-byte rule hash, the 32-byte replay cursor hashes, the extended-attribute hash and the head
 * file id of an entry's identity, and the {@code ActionKind} numbering of the {@code LifecycleDelete} RPC.
 * Tidemark and a SeaweedFS gateway must agree on these to the bit, so each one has golden-byte tests.
 */
package io.tidemark.seaweed;
