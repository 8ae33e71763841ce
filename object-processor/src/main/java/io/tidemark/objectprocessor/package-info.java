/**
 * The object processor: reads {@code object-tasks}, carries each task out through the S3 gateway's identity-checked
 * {@code LifecycleDelete}, and commits a partition's offset only past tasks that are finished (done, resolved,
 * skipped for object lock, or parked in the dead-letter topic). {@link io.tidemark.objectprocessor.TaskLoop} is the
 * consumer loop; {@link io.tidemark.objectprocessor.ObjectProcessorService} runs it as a service.
 */
package io.tidemark.objectprocessor;
