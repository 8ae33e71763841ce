/** The conductor: one walker pass (lock, backlog gate, bucket enumeration, steady bucket tasks), once or on cron. */
package io.tidemark.conductor;
