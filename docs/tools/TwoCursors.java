import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

/**
 * Asks whether reading a collection through two cursors at once, each over half of its {@code _id}
 * range, would speed up the export. With one cursor, mongod and the thread that reads its replies
 * take turns: mongod prepares the next batch only when the driver asks for it, after the thread
 * has read the last one. Two cursors let them overlap.
 *
 * <p>Each round scans the collection once with one cursor and once with two. The cursors hand the
 * documents, in chunks of 64, to a consumer thread that burns a fixed amount of CPU per document
 * ({@code -Diter}; 18,000 iterations take about 10 µs, what the export's main thread spends on
 * decoding and encoding an article document). The two-cursor halves are split at the median of a
 * {@code $sample} of 64 {@code _id}s. Documents are not put back in order: this measures time, not
 * output. A throwaway tool for docs/benchmarks.md, not part of the build:
 *
 * <pre>
 * ./mvnw -q -o dependency:build-classpath -Dmdep.outputFile=/tmp/deps.txt -Dmdep.includeScope=runtime
 * java -Diter=18000 -cp "$(cat /tmp/deps.txt)" docs/tools/TwoCursors.java $URI bench art100k 6
 * java -Diter=0     -cp "$(cat /tmp/deps.txt)" docs/tools/TwoCursors.java $URI bench art100k 4
 * </pre>
 */
public class TwoCursors {

  private static final int ITER = Integer.getInteger("iter", 18_000);
  private static final int CHUNK = 64;
  private static final BsonDocument ID_INDEX = new BsonDocument("_id", new BsonInt32(1));

  public static void main(String[] args) throws Exception {
    String uri = args[0];
    String db = args.length > 1 ? args[1] : "bench";
    String name = args.length > 2 ? args[2] : "art100k";
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 6;
    try (MongoClient client = MongoClients.create(uri)) {
      MongoCollection<RawBsonDocument> collection =
          client.getDatabase(db).getCollection(name, RawBsonDocument.class);
      long count = collection.countDocuments();
      System.out.printf("consumer alone: %d ms for %d documents%n", burnAlone(count), count);
      BsonValue middle = median(collection);
      for (int round = 1; round <= rounds; round++) {
        for (int cursors = 1; cursors <= 2; cursors++) {
          long start = System.nanoTime();
          long read = scan(collection, cursors, middle);
          long ms = (System.nanoTime() - start) / 1_000_000;
          System.out.printf(
              "round %d, %d cursor%s: %d documents in %d ms%n",
              round, cursors, cursors == 1 ? "" : "s", read, ms);
        }
      }
    }
  }

  private static BsonValue median(MongoCollection<RawBsonDocument> collection) {
    List<BsonValue> ids = new ArrayList<>();
    List<BsonDocument> pipeline =
        List.of(
            new BsonDocument("$sample", new BsonDocument("size", new BsonInt32(64))),
            new BsonDocument("$project", ID_INDEX),
            new BsonDocument("$sort", ID_INDEX));
    for (RawBsonDocument d : collection.aggregate(pipeline)) {
      ids.add(d.get("_id"));
    }
    return ids.get(ids.size() / 2);
  }

  /**
   * Reads the collection with 1 or 2 cursors while the consumer burns CPU per document. Each cursor
   * ends with an empty chunk; the consumer stops after one from each.
   */
  private static long scan(
      MongoCollection<RawBsonDocument> collection, int cursors, BsonValue middle)
      throws InterruptedException {
    BlockingQueue<List<RawBsonDocument>> queue = new ArrayBlockingQueue<>(64);
    AtomicLong consumed = new AtomicLong();
    Thread consumer =
        new Thread(
            () -> {
              long sink = 0;
              try {
                int ended = 0;
                while (ended < cursors) {
                  List<RawBsonDocument> chunk = queue.take();
                  ended += chunk.isEmpty() ? 1 : 0;
                  for (RawBsonDocument d : chunk) {
                    sink += burn(d.getByteBuffer().remaining());
                    consumed.incrementAndGet();
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              if (sink == 42) {
                System.out.print(""); // keeps the burn from being optimized away
              }
            });
    consumer.start();
    List<Thread> readers = new ArrayList<>();
    for (int k = 0; k < cursors; k++) {
      FindIterable<RawBsonDocument> find =
          collection.find().sort(ID_INDEX).hint(ID_INDEX).batchSize(1000);
      if (cursors == 2) {
        BsonDocument bound = new BsonDocument("_id", middle);
        find = k == 0 ? find.max(bound) : find.min(bound);
      }
      FindIterable<RawBsonDocument> f = find;
      Thread reader =
          new Thread(
              () -> {
                List<RawBsonDocument> chunk = new ArrayList<>(CHUNK);
                try {
                  for (RawBsonDocument d : f) {
                    chunk.add(d);
                    if (chunk.size() == CHUNK) {
                      queue.put(chunk);
                      chunk = new ArrayList<>(CHUNK);
                    }
                  }
                  if (!chunk.isEmpty()) {
                    queue.put(chunk);
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } finally {
                  end(queue); // also after a failed read, so that the consumer stops
                }
              });
      reader.start();
      readers.add(reader);
    }
    for (Thread reader : readers) {
      reader.join();
    }
    consumer.join();
    return consumed.get();
  }

  private static void end(BlockingQueue<List<RawBsonDocument>> queue) {
    try {
      queue.put(List.of());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static long burnAlone(long count) {
    long start = System.nanoTime();
    long sink = 0;
    for (long n = 0; n < count; n++) {
      sink += burn((int) n);
    }
    if (sink == 42) {
      System.out.print("");
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  private static long burn(int seed) {
    long x = seed;
    for (int i = 0; i < ITER; i++) {
      x += i * 31 ^ x;
    }
    return x;
  }
}
