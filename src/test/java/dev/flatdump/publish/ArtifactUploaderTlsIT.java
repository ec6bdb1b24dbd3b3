package dev.flatdump.publish;

import dev.flatdump.testing.MinioServer;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * {@link ArtifactUploaderContract} over https, with the server's self-signed certificate trusted
 * the way a user trusts an internal CA: the JVM's {@code javax.net.ssl.trustStore} properties (what
 * {@code FLATDUMP_JAVA_OPTS} passes to {@code bin/flatdump}).
 */
class ArtifactUploaderTlsIT extends ArtifactUploaderContract {

  private static final List<String> TRUST =
      List.of(
          "javax.net.ssl.trustStore",
          "javax.net.ssl.trustStorePassword",
          "javax.net.ssl.trustStoreType");

  private static Map<String, String> previous;

  @Override
  boolean https() {
    return true;
  }

  @BeforeEach
  void trustTheServer() {
    if (previous == null) {
      previous = new LinkedHashMap<>();
      TRUST.forEach(k -> previous.put(k, System.getProperty(k)));
    }
    System.setProperty("javax.net.ssl.trustStore", server.trustStore().toString());
    System.setProperty("javax.net.ssl.trustStorePassword", MinioServer.TRUST_STORE_PASSWORD);
    System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
  }

  @AfterAll
  static void stop() throws IOException {
    try {
      stopServer(true);
    } finally {
      if (previous != null) {
        previous.forEach(
            (k, v) -> {
              if (v == null) {
                System.clearProperty(k);
              } else {
                System.setProperty(k, v);
              }
            });
      }
    }
  }
}
