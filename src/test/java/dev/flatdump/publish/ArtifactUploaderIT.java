package dev.flatdump.publish;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;

/**
 * {@link ArtifactUploaderContract} over plain http, as in-cluster MinIO and docker/compose.yaml.
 */
class ArtifactUploaderIT extends ArtifactUploaderContract {

  @Override
  boolean https() {
    return false;
  }

  @AfterAll
  static void stop() throws IOException {
    stopServer(false);
  }
}
