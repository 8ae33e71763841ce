/**
 * Replay-streams: a Kafka Streams application that reads the meta-log (and re-arm records), keeps one durable timer
 * per object and timer-driven action in a changelogged store, and when a timer falls due re-checks it against the
 * bucket's current rules and emits an object task. {@link io.tidemark.replay.ReplayTopology#build} is the topology.
 */
package io.tidemark.replay;
