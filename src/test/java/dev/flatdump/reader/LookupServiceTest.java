package dev.flatdump.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.example.lookup.Field;
import dev.flatdump.example.lookup.LookupService;
import dev.flatdump.example.lookup.Options;
import dev.flatdump.reader.LookupServiceClient.Answer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The example service ({@code examples/lookup-service}) in process, on exports published as the job
 * publishes them ({@link KeyedExports}: {@code id} the key, {@code tag} and {@code n} beside it),
 * over real HTTP: what each endpoint answers, before the first export, from one, and across a
 * refused one.
 */
class LookupServiceTest {

  /** {@link KeyedExports#SCHEMA}'s fields after the key: {@code tag} (id 1), {@code n} (id 2). */
  static final List<Field> FIELDS =
      List.of(new Field("tag", 6, Field.Type.STRING), new Field("n", 8, Field.Type.LONG));

  private static LookupService start(Path out) throws IOException {
    return LookupService.start(new Options(out, 0, Duration.ofMillis(20), FIELDS), System.out);
  }

  /** How many shards the export in {@code dir} has. */
  static int shards(Path dir) {
    return ExportManifest.read(dir).shards().size();
  }

  @Test
  void answers503UntilTheFirstExportIsPublishedThenEachKeyFromIt(@TempDir Path dir)
      throws Exception {
    Path out = Files.createDirectories(dir.resolve("out"));
    KeyedExports exports = new KeyedExports(dir, "long", 1024);
    try (LookupService service = start(out)) {
      LookupServiceClient client = new LookupServiceClient(service.port());
      Answer early = client.get("/records/2");
      assertThat(early.status()).isEqualTo(503);
      assertThat(early.body().get("error").stringValue()).contains("no export yet");
      Answer health = client.get("/health");
      assertThat(health.status()).isEqualTo(503);
      assertThat(health.body().get("export").isNull()).isTrue();

      List<Long> keys = LongStream.range(0, 300).map(k -> 2 * k - 100).boxed().toList();
      Path e1 = exports.publish(out, "e1", 2, keys, keys.stream().map(k -> "e1:" + k).toList());
      assertThat(shards(e1)).as("several shards").isGreaterThan(2);
      client.awaitExport("e1");

      for (int i = 0; i < keys.size(); i++) {
        long key = keys.get(i);
        Answer a = client.get("/records/" + key);
        assertThat(a.status()).as("GET /records/%d", key).isEqualTo(200);
        assertThat(a.body().toString())
            .isEqualTo(
                "{\"export\":\"e1\",\"key\":%d,\"found\":true,\"record\":{\"tag\":\"e1:%d\",\"n\":%d}}",
                key, key, i);
        Answer absent = client.get("/records/" + (key + 1));
        assertThat(absent.status()).as("GET /records/%d", key + 1).isEqualTo(404);
        assertThat(absent.body().toString())
            .isEqualTo("{\"export\":\"e1\",\"key\":%d,\"found\":false}", key + 1);
      }
      assertThat(client.get("/records/-102").status()).isEqualTo(404);
      assertThat(client.get("/records/%2B498").body().get("key").longValue()).isEqualTo(498);

      for (String bad : List.of("x", "1.5", "", "9223372036854775808")) {
        Answer a = client.get("/records/" + bad);
        assertThat(a.status()).as("GET /records/%s", bad).isEqualTo(400);
        assertThat(a.body().get("error").stringValue()).isNotBlank();
      }
      assertThat(client.get("/records/x").body().get("error").stringValue())
          .isEqualTo("'x' is not an integer key: the records' key id is a long");
      assertThat(client.get("/nothing").status()).isEqualTo(404);
      assertThat(client.get("/healthz").status()).isEqualTo(404);
      Answer post =
          client.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + "/health"))
                  .POST(HttpRequest.BodyPublishers.noBody()));
      assertThat(post.status()).isEqualTo(405);

      JsonNode h = client.get("/health").body();
      assertThat(h.get("export").stringValue()).isEqualTo("e1");
      assertThat(h.get("records").longValue()).isEqualTo(keys.size());
      assertThat(h.get("mappedRegions").longValue()).isEqualTo(shards(e1));
      assertThat(h.get("reloads").longValue()).isZero();
    }
    assertThat(MappedRegions.under(out)).as("closed: nothing mapped").isZero();
  }

  @Test
  void decodesStringKeysFromThePathAsUtf8(@TempDir Path dir) throws Exception {
    KeyedExports exports = new KeyedExports(dir, "string", 1024);
    List<String> keys =
        Arrays.stream(
                new String[] {
                  " ", "+", "100%", "a b", "a/b", "a?b#c", "é", "日本", "😀", "k\"\\", "z", "ß+ß"
                })
            .sorted((x, y) -> Arrays.compareUnsigned(utf8(x), utf8(y)))
            .toList();
    Path out = dir.resolve("out");
    exports.publish(out, "s1", 2, keys, keys.stream().map(k -> "s1:" + k).toList());
    try (LookupService service = start(out)) {
      LookupServiceClient client = new LookupServiceClient(service.port());
      for (String key : keys) {
        Answer a = client.get("/records/" + encode(key));
        assertThat(a.status()).as("GET /records/%s", encode(key)).isEqualTo(200);
        assertThat(a.body().get("key").stringValue()).isEqualTo(key);
        assertThat(a.body().get("record").get("tag").stringValue()).isEqualTo("s1:" + key);
      }
      for (String absent : List.of("", "a", "a%20", "%C3%A9%C3%A9", "%F0%9F%98%81")) {
        Answer a = client.get("/records/" + absent);
        assertThat(a.status()).as("GET /records/%s", absent).isEqualTo(404);
        assertThat(a.body().get("found").booleanValue()).isFalse();
      }
      Answer notUtf8 = client.get("/records/%C3");
      assertThat(notUtf8.status()).isEqualTo(400);
      assertThat(notUtf8.body().get("error").stringValue()).contains("is not UTF-8");
    }
  }

  @Test
  void aRefusedExportLeavesThePreviousOneInServiceUntilTheNext(@TempDir Path dir) throws Exception {
    KeyedExports exports = new KeyedExports(dir, "long", 1024);
    Path out = dir.resolve("out");
    List<Long> keys = LongStream.range(0, 200).boxed().toList();
    exports.publish(out, "e1", 3, keys, keys.stream().map(k -> "e1:" + k).toList());
    try (LookupService service = start(out)) {
      LookupServiceClient client = new LookupServiceClient(service.port());
      client.awaitExport("e1");

      Path broken = Files.createDirectories(out.resolve("exports").resolve("broken"));
      Files.writeString(broken.resolve("manifest.json"), "{\"files\": []}");
      Path link = out.resolve("current.tmp");
      Files.createSymbolicLink(link, Path.of("exports", "broken"));
      Files.move(link, out.resolve("current"), StandardCopyOption.ATOMIC_MOVE);
      JsonNode h = client.awaitHealth(x -> x.get("reloadFailures").longValue() > 0, "a failure");
      assertThat(h.get("lastReloadFailure").stringValue())
          .contains("broken")
          .contains("e1 stays current")
          .contains("not a valid manifest");
      Answer a = client.get("/records/7");
      assertThat(a.status()).isEqualTo(200);
      assertThat(a.body().get("export").stringValue()).isEqualTo("e1");
      assertThat(a.body().get("record").get("tag").stringValue()).isEqualTo("e1:7");

      Path e2 = exports.publish(out, "e2", 3, keys, keys.stream().map(k -> "e2:" + k).toList());
      client.awaitHealth(x -> x.get("reloads").longValue() == 1, "one reload");
      // asked again: the request that saw the reload may have held e1 across it
      h = client.get("/health").body();
      assertThat(h.get("export").stringValue()).isEqualTo("e2");
      assertThat(h.get("mappedRegions").longValue())
          .as("e1 unmapped once no request holds it")
          .isEqualTo(shards(e2));
      assertThat(client.get("/records/7").body().get("record").get("tag").stringValue())
          .isEqualTo("e2:7");
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** {@code key} as a path segment: percent-encoded UTF-8, a space as {@code %20}. */
  static String encode(String key) {
    return URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
