/**
 * An export on disk, as its writers, readers and checkers all see it: the manifest and the files it
 * lists, shard names, the schema files an export carries, the output directory's layout and its
 * pointer, checksums and atomic file writes. Writing is in {@code artifact.write}, reading in
 * {@code artifact.read}, checking in {@code artifact.check}.
 */
package dev.flatdump.artifact;
