package dev.flatdump.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.example.lookup.LookupService;
import dev.flatdump.example.lookup.Options;
import dev.flatdump.reader.LookupServiceClient.Answer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 40's example service under load: 8 clients look keys up over HTTP, as fast as the service
 * answers, while 100 exports are published one after another, each with its own keys and values.
 * Every answer must come whole from the export it names, no request may fail, and the regions
 * mapped under the output directory must stay within what the requests in flight can hold.
 */
class LookupServiceLoadTest {

  private static final int EXPORTS = 100;
  private static final int CLIENTS = 8;

  /** Keys asked for: {@code -10 .. KEYS + 9}; an export holds some of {@code 0 .. KEYS - 1}. */
  private static final int KEYS = 400;

  @BeforeAll
  static void unmapsAtOnceOnThisJdk() {
    assertThat(Unmapper.available()).as(String.valueOf(Unmapper.unavailableReason())).isTrue();
  }

  private static String name(int export) {
    return String.format("run-%03d", export);
  }

  /** Whether export {@code e} holds key {@code k}: each lacks another fifth of the keys. */
  private static boolean holds(int e, long k) {
    return k >= 0 && k < KEYS && (k + e) % 5 != 0;
  }

  private static String tag(int e, long k) {
    return name(e) + ":" + k;
  }

  /** Export {@code e}'s record {@code n} (its position) for key {@code k}. */
  private static long position(int e, long k) {
    return LongStream.range(0, k).filter(x -> holds(e, x)).count();
  }

  private static Path publish(KeyedExports exports, Path out, int e) {
    List<Long> keys = LongStream.range(0, KEYS).filter(k -> holds(e, k)).boxed().toList();
    return exports.publish(out, name(e), 3, keys, keys.stream().map(k -> tag(e, k)).toList());
  }

  @Test
  void everyAnswerComesWholeFromTheExportItNamesWhile100ArePublished(@TempDir Path dir)
      throws Exception {
    KeyedExports exports = new KeyedExports(dir, "long", 1024);
    Path out = dir.resolve("out");
    int maxShards = LookupServiceTest.shards(publish(exports, out, 0));
    Map<String, Integer> published = new ConcurrentHashMap<>(Map.of(name(0), 0));
    Map<String, AtomicLong> answersPer = new ConcurrentHashMap<>();
    Queue<String> errors = new ConcurrentLinkedQueue<>();
    AtomicBoolean done = new AtomicBoolean();
    Options options = new Options(out, 0, Duration.ofMillis(10), LookupServiceTest.FIELDS);
    try (LookupService service = LookupService.start(options, System.out)) {
      List<Thread> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        LookupServiceClient client = new LookupServiceClient(service.port());
        Random random = new Random(40 + c);
        Thread t =
            new Thread(
                () -> {
                  while (!done.get() && errors.size() < 20) {
                    long key = random.nextInt(KEYS + 20) - 10;
                    try {
                      String export = check(client.get("/records/" + key), key, published);
                      answersPer.computeIfAbsent(export, x -> new AtomicLong()).incrementAndGet();
                    } catch (Exception | AssertionError e) {
                      errors.add("GET /records/" + key + ": " + e);
                    }
                  }
                },
                "client-" + c);
        t.start();
        clients.add(t);
      }

      LookupServiceClient health = new LookupServiceClient(service.port());
      long mostRegions = 0;
      for (int e = 1; e <= EXPORTS && errors.isEmpty(); e++) {
        published.put(name(e), e); // before the service can answer from it
        maxShards = Math.max(maxShards, LookupServiceTest.shards(publish(exports, out, e)));
        JsonNode h = health.awaitExport(name(e));
        mostRegions = Math.max(mostRegions, h.get("mappedRegions").longValue());
        String id = name(e);
        // the clients got answers from this export before the next one replaces it
        health.awaitHealth(
            x -> answersPer.containsKey(id) || !errors.isEmpty(), "answers of " + id);
      }
      done.set(true);
      for (Thread t : clients) {
        t.join();
      }
      assertThat(errors).as("failed or torn answers").isEmpty();
      assertThat(answersPer.keySet())
          .as("exports that answered")
          .containsAll(published.keySet().stream().filter(n -> !n.equals(name(0))).toList());
      long answers = answersPer.values().stream().mapToLong(AtomicLong::get).sum();
      assertThat(answers).isGreaterThan(EXPORTS);

      // the current export, each request in flight holding one (the health check's included),
      // and the next one being opened: never a region more, whatever the number of reloads
      assertThat(mostRegions)
          .as("regions mapped under OUT at most (shards of one export at most: %d)", maxShards)
          .isLessThanOrEqualTo((long) (CLIENTS + 3) * maxShards);
      health.awaitHealth(x -> x.get("reloads").longValue() == EXPORTS, EXPORTS + " reloads");
      JsonNode last = health.get("/health").body();
      assertThat(last.get("export").stringValue()).isEqualTo(name(EXPORTS));
      assertThat(last.get("mappedRegions").longValue())
          .as("once no request is in flight, the last export's shards only")
          .isEqualTo(LookupServiceTest.shards(out.resolve("exports").resolve(name(EXPORTS))));
      System.out.printf(
          "%d answers from %d exports; at most %d regions mapped (%d shards an export at most)%n",
          answers, answersPer.size(), mostRegions, maxShards);
    }
  }

  /**
   * Checks one answer against the export it names: found exactly when that export holds the key,
   * with that export's tag and position for it.
   *
   * @return the export's name
   */
  private static String check(Answer a, long key, Map<String, Integer> published) {
    JsonNode body = a.body();
    String export = body.get("export").stringValue();
    Integer e = published.get(export);
    if (e == null) {
      throw new AssertionError("an answer from export " + export + ", not published yet: " + body);
    }
    boolean expected = holds(e, key);
    if (a.status() != (expected ? 200 : 404)
        || body.get("key").longValue() != key
        || body.get("found").booleanValue() != expected) {
      throw new AssertionError(
          "status " + a.status() + ", expected found=" + expected + ": " + body);
    }
    if (expected) {
      JsonNode record = body.get("record");
      if (!record.get("tag").stringValue().equals(tag(e, key))
          || record.get("n").longValue() != position(e, key)) {
        throw new AssertionError("torn: " + body + ", expected n=" + position(e, key));
      }
    }
    return export;
  }
}
