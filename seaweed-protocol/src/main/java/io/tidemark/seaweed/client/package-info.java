/**
 * gRPC clients for the two SeaweedFS services Tidemark talks to: the filer ({@code filer_pb.SeaweedFiler}) and
 * the S3 gateway's lifecycle endpoint ({@code s3_lifecycle_pb.SeaweedS3LifecycleInternal}). Every call has a
 * deadline, failures are classified as transient or permanent, and the metadata subscription reconnects by
 * itself.
 */
package io.tidemark.seaweed.client;
