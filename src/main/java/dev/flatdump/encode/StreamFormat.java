package dev.flatdump.encode;

/** The stream formats {@link OrgStreamEncoder} writes: the size baselines the FlatBuffers beat. */
public enum StreamFormat {

  /**
   * One protobuf {@code Organizations} message (schemas/organizations.proto), written org by org.
   */
  PROTOBUF,

  /** JSON lines as mongoexport writes them: one relaxed Extended JSON document per org and line. */
  JSON
}
