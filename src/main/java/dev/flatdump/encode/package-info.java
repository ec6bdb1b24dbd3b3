/**
 * Encodes organizations: into FlatBuffers shards with switchable de-duplication (and reads them
 * back zero-copy), and into the protobuf and JSON-lines streams that serve as size baselines.
 */
package dev.flatdump.encode;
