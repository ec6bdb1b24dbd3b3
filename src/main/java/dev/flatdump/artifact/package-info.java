/**
 * The files flatdump produces: shards written atomically, compressed copies, checksums, the
 * manifest and the mmap reader.
 */
package dev.flatdump.artifact;
