package dev.flatdump.example.lookup;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.flatdump.reader.ExportManifest;
import dev.flatdump.reader.ExportReader;
import dev.flatdump.reader.MappedRegions;
import dev.flatdump.reader.ReaderException;
import dev.flatdump.reader.ReloadListener;
import dev.flatdump.reader.Snapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP service that answers {@code GET /records/{key}} from the current export of an output
 * directory, and moves to the next export when the job publishes one: the reader follows the
 * pointer by itself ({@link ExportReader#follow}: at once where the file system can say it changed,
 * every {@link Options#poll} in any case); each request holds a {@link Snapshot} for exactly its
 * own duration, so that a request in flight during a reload reads the export it started on, whole,
 * and the old export is unmapped when its last request ends.
 *
 * <p>Answers are JSON and always name the export that answered ({@code "export"}). Before the first
 * export exists, requests are answered 503 and the directory is tried every {@link Options#poll}
 * until one opens. Thread-safe; {@link #close} stops the server, the following and the reader.
 */
public final class LookupService implements AutoCloseable {

  private static final String RECORDS = "/records/";

  private final Options options;
  private final PrintStream log;
  private final HttpServer server;
  private final ExecutorService requests;
  private final ScheduledExecutorService firstOpen;

  /** Null until the first export opens; then it follows the pointer by itself. */
  private volatile ExportReader reader;

  private volatile AutoCloseable following;

  private final AtomicLong reloads = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private volatile String lastFailure;

  private LookupService(Options options, PrintStream log) throws IOException {
    // Without TCP_NODELAY, the server's two writes (headers, then body) meet the client's delayed
    // ACK and each answer waits for it. Read once, when the JVM's first HttpServer starts.
    System.getProperties().putIfAbsent("sun.net.httpserver.nodelay", "true");
    this.options = options;
    this.log = log;
    this.server = HttpServer.create(new InetSocketAddress(options.port()), 0);
    this.requests =
        Executors.newFixedThreadPool(Math.max(8, 2 * Runtime.getRuntime().availableProcessors()));
    this.firstOpen =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "lookup-service-first-open");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(requests);
    server.createContext("/", this::answer);
  }

  /**
   * Opens the current export (or keeps trying until there is one), then listens.
   *
   * @throws IOException when the port cannot be listened on
   */
  public static LookupService start(Options options, PrintStream log) throws IOException {
    LookupService service = new LookupService(options, log);
    service.open();
    if (service.reader == null) {
      long every = options.poll().toMillis();
      service.firstOpen.scheduleWithFixedDelay(service::open, every, every, TimeUnit.MILLISECONDS);
    }
    service.server.start();
    return service;
  }

  /** The port the service listens on (the one chosen when {@link Options#port} is 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Opens the current export, if there is one yet, and follows the pointer. Never throws. */
  private void open() {
    try {
      ExportReader r = ExportReader.open(options.dir());
      r.addListener(
          new ReloadListener() {
            @Override
            public void refreshed(String oldId, String newId) {
              reloads.incrementAndGet();
              log.println("lookup-service: export " + newId + " is current (was " + oldId + ")");
            }

            @Override
            public void failed(Path dir, String currentId, ReaderException cause) {
              fail(
                  "export "
                      + dir
                      + " refused, "
                      + currentId
                      + " stays current: "
                      + cause.getMessage());
            }
          });
      following = r.follow(options.poll());
      reader = r;
      firstOpen.shutdown(); // from now on the reader follows the pointer by itself
      log.println("lookup-service: export " + r.currentId() + " is current");
    } catch (RuntimeException e) {
      fail("no export yet: " + e.getMessage());
    }
  }

  private void fail(String message) {
    failures.incrementAndGet();
    if (!message.equals(lastFailure)) {
      log.println("lookup-service: " + message);
    }
    lastFailure = message;
  }

  private Reply route(HttpExchange exchange) {
    String path = exchange.getRequestURI().getRawPath();
    if (!exchange.getRequestMethod().equals("GET")) {
      exchange.getResponseHeaders().set("Allow", "GET");
      return new Reply(405, new Json().put("error", "only GET is answered"));
    }
    if (path.startsWith(RECORDS)) {
      return record(path.substring(RECORDS.length()));
    }
    if (path.equals("/health")) {
      return health();
    }
    return new Reply(
        404, new Json().put("error", "no such endpoint: GET /records/{key} or /health"));
  }

  /** {@code GET /records/{key}}. */
  private Reply record(String rawKey) {
    String key;
    try {
      key = Keys.decode(rawKey);
    } catch (IllegalArgumentException e) {
      return new Reply(400, new Json().put("error", e.getMessage()));
    }
    ExportReader r = reader;
    if (r == null) {
      return new Reply(503, new Json().put("error", lastFailure));
    }
    Snapshot held;
    try {
      held = r.snapshot();
    } catch (IllegalStateException closed) {
      return new Reply(503, new Json().put("error", closed.getMessage()));
    }
    try (Snapshot s = held) {
      ExportManifest.Lookup lookup = s.manifest().lookup();
      if (lookup == null) {
        return new Reply(
            500, new Json().put("export", s.id()).put("error", "its records have no (key) field"));
      }
      Object keyValue;
      Json record;
      if (lookup.stringKey()) {
        keyValue = key;
        record = s.lookup(key, this::render);
      } else {
        long k;
        try {
          k = Keys.integer(key, lookup);
        } catch (IllegalArgumentException e) {
          return new Reply(400, new Json().put("export", s.id()).put("error", e.getMessage()));
        }
        keyValue = lookup.keyType().startsWith("u") ? new BigInteger(Long.toUnsignedString(k)) : k;
        record = s.lookup(k, this::render);
      }
      // rendered while the snapshot is held: nothing read from the shard outlives it
      Json answer = new Json().put("export", s.id()).put("key", keyValue);
      return record == null
          ? new Reply(404, answer.put("found", false))
          : new Reply(200, answer.put("found", true).put("record", record));
    }
  }

  /** The record table at {@code table}: the fields the command line names. */
  private Json render(int table, ByteBuffer shard) {
    Json record = new Json();
    for (Field f : options.fields()) {
      record.put(f.name(), f.read(shard, table));
    }
    return record;
  }

  /** {@code GET /health}: what is served, and how reloads went. */
  private Reply health() {
    Json json = new Json();
    ExportReader r = reader;
    int status = 503;
    if (r != null) {
      try (Snapshot s = r.snapshot()) {
        json.put("export", s.id()).put("records", s.records());
        status = 200;
      } catch (IllegalStateException closed) {
        json.put("export", null);
      }
    } else {
      json.put("export", null);
    }
    return new Reply(
        status,
        json.put("mappedRegions", mappedRegions())
            .put("reloads", reloads.get())
            .put("reloadFailures", failures.get())
            .put("lastReloadFailure", lastFailure));
  }

  /** The regions mapped from files under the directory, or null where this cannot be counted. */
  private Long mappedRegions() {
    try {
      return MappedRegions.supported() ? MappedRegions.under(options.dir()) : null;
    } catch (ReaderException e) {
      return null;
    }
  }

  /** An answer: its status and its JSON body. */
  private record Reply(int status, Json body) {}

  /** Answers one exchange; what escapes {@link #route} is a 500 that says why. */
  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      Reply reply;
      try {
        reply = route(exchange);
      } catch (RuntimeException e) {
        log.println("lookup-service: " + exchange.getRequestURI() + ": " + e);
        reply = new Reply(500, new Json().put("error", e.getMessage()));
      }
      byte[] body = reply.body().toString().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(reply.status(), body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** Stops listening (requests in flight get up to a second), following, and reading. */
  @Override
  public void close() {
    server.stop(1);
    requests.shutdown();
    firstOpen.shutdownNow();
    try {
      firstOpen.awaitTermination(10, TimeUnit.SECONDS);
      requests.awaitTermination(10, TimeUnit.SECONDS);
      if (following != null) {
        following.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      log.println("lookup-service: " + e);
    }
    if (reader != null) {
      reader.close();
    }
  }

  /** {@code lookup-service --dir DIR --port N [--poll SECONDS] [--field NAME:VOFFSET:TYPE]...} */
  public static void main(String[] args) {
    if (List.of(args).contains("--help")) {
      System.out.print(Options.USAGE);
      return;
    }
    Options options;
    try {
      options = Options.parse(args);
    } catch (Options.UsageException e) {
      System.err.println("lookup-service: " + e.getMessage() + "\nTry lookup-service --help.");
      System.exit(2);
      return;
    }
    if (!Files.isDirectory(options.dir())) {
      System.err.println("lookup-service: --dir " + options.dir() + " is not a directory");
      System.exit(2);
    }
    LookupService service;
    try {
      service = start(options, System.err);
    } catch (IOException e) {
      System.err.println("lookup-service: cannot listen on port " + options.port() + ": " + e);
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(service::close));
    System.err.println(
        "lookup-service: answering GET http://localhost:"
            + service.port()
            + "/records/{key} from "
            + options.dir());
  }
}
