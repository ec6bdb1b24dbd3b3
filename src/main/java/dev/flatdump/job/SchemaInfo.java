package dev.flatdump.job;

import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import java.io.IOException;
import java.io.InputStream;

/** The FlatBuffers schema bundled in the jar, identified by its SHA-256 in the manifest. */
final class SchemaInfo {

  static final String RESOURCE = "schemas/organizations.fbs";

  private SchemaInfo() {}

  /** The manifest's entry for the bundled schema whose bytes are {@code text}. */
  static Manifest.Schema describe(byte[] text) {
    return new Manifest.Schema("organizations.fbs", Checksums.sha256(text), "ORGS");
  }

  /** The schema's text, as bundled: the bytes every export carries a copy of. */
  static byte[] text() {
    try (InputStream in = SchemaInfo.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the classpath: broken build");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE, e);
    }
  }
}
