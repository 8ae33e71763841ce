/**
 * The records Tidemark's topics carry. JSON records are immutable Java records; the meta-log record is protobuf
 * ({@code tidemark.proto}) because it wraps the filer's own event. {@link io.tidemark.topics.TopicRegistry} ties
 * each to its topic and serdes.
 */
package io.tidemark.messages;
