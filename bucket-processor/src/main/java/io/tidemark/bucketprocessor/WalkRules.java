package io.tidemark.bucketprocessor;

import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.RuleSet;

/** A bucket's valid rules and versioning as the walk reads them from the bucket entry at the start of a page. */
record WalkRules(RuleSet rules, BucketVersioning versioning) {
}
