/**
 * The schema-driven engine: BSON documents, walked as bytes, built into FlatBuffers tables by a
 * {@link dev.flatdump.encode.plan.SchemaPlan}, children before parents, under strict mapping rules
 * (docs/mapping.md).
 */
package dev.flatdump.encode.engine;
