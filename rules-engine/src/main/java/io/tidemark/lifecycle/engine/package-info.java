/**
 * Compiled lifecycle rules and their evaluation. A validated configuration compiles once into an immutable
 * {@link io.tidemark.lifecycle.engine.RuleSet} that answers, for one object version or multipart upload at
 * one instant, which action is due under which rule, or when the next one will be.
 */
package io.tidemark.lifecycle.engine;
