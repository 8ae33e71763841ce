/**
 * The hashing primitives SeaweedFS's Go code uses for lifecycle identifiers — field framing, Go's UTF-8 string
 * order, Go's time encoding — so that the rule hash, the replay cursor hashes, the shard function and the entry
 * identity hash computed here match upstream's to the bit.
 */
package io.tidemark.lifecycle.hash;
