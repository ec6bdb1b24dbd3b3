package dev.flatdump.reader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of the example service ({@code examples/lookup-service}) on 127.0.0.1, over the JDK's
 * {@link HttpClient}: each answer's status and JSON body. One per thread.
 */
final class LookupServiceClient {

  /** How long {@link #awaitHealth} waits before it fails: a bound on a hang, not a timing. */
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  /** An answer: its HTTP status and its body, parsed. */
  record Answer(int status, JsonNode body) {}

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final String base;

  LookupServiceClient(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /** {@code GET path} ({@code path} already URL-encoded). */
  Answer get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
  }

  Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(request.timeout(PATIENCE).build(), HttpResponse.BodyHandlers.ofString());
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (!type.equals("application/json")) {
      throw new IOException("not JSON but '" + type + "': " + response.body());
    }
    return new Answer(response.statusCode(), JsonMapper.shared().readTree(response.body()));
  }

  /** {@code GET /health}'s body, once it satisfies {@code until}; fails after a minute. */
  JsonNode awaitHealth(Predicate<JsonNode> until, String what) throws InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    JsonNode health = null;
    while (Instant.now().isBefore(deadline)) {
      try {
        health = get("/health").body();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (until.test(health)) {
        return health;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("the service never got to " + what + "; /health says " + health);
  }

  /** {@code GET /health}'s body once the service answers from export {@code id}. */
  JsonNode awaitExport(String id) throws InterruptedException {
    return awaitHealth(h -> id.equals(h.path("export").stringValue(null)), "export " + id);
  }
}
