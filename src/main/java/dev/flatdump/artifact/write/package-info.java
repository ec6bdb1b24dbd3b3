/**
 * Writing an export on the local disk: shards from the engine, rejects, the merge of partitions,
 * compressed copies, and the local publish ({@link dev.flatdump.artifact.write.LocalPublisher}: the
 * staged export renamed into {@code OUT/exports/} and the pointer switched). The upload to object
 * storage is the {@code publish} package's.
 */
package dev.flatdump.artifact.write;
