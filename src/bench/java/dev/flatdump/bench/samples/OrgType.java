package dev.flatdump.bench.samples;

/**
 * The organization type: a byte enum in the FlatBuffers schema, its names are stored in MongoDB.
 */
public enum OrgType {
  FOO,
  BAR,
  BAZ
}
