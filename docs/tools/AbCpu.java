import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.bson.BsonBinaryWriter;
import org.bson.BsonObjectId;
import org.bson.BsonValue;
import org.bson.BsonWriter;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;
import org.bson.types.ObjectId;

/**
 * Compares two builds of flatdump's export main thread (decode + encode of every document, as
 * {@code flatdump-bench cpu}'s last row) in one JVM, runs alternating, so that the machine's slow and quiet
 * stretches fall on both alike. Each build is loaded from its own classes directory in a class
 * loader of its own; the dependencies come from the class path. A throwaway tool for docs/benchmarks.md,
 * not part of the build:
 *
 * <pre>
 * ./mvnw -q -o dependency:build-classpath -Dmdep.outputFile=/tmp/deps.txt -Dmdep.includeScope=runtime
 * ./mvnw -q -o -Dbuild.dir=target-a -DskipTests compile     # at the first commit
 * ./mvnw -q -o -Dbuild.dir=target-b -DskipTests compile     # at the second
 * java -Xmx6g -cp "$(cat /tmp/deps.txt)" docs/tools/AbCpu.java article 100000 16 target-a/classes target-b/classes
 * </pre>
 *
 * Prints, per build, the artifact's size and the thread CPU per document (fastest, 25th percentile,
 * median of the runs after three warm-up rounds), then in how many rounds the second was faster and
 * the geometric mean of second / first.
 */
public class AbCpu {

  private static final MethodHandles.Lookup LOOKUP = MethodHandles.publicLookup();

  /** One build: what it needs to decode and encode. */
  private record Build(String name, MethodHandle newDecoder, MethodHandle decode,
      MethodHandle newBuilder, MethodHandle add, MethodHandle finish) {

    static Build load(String classes) throws Throwable {
      ClassLoader loader = loader(classes);
      Class<?> org = loader.loadClass("dev.flatdump.Org");
      Class<?> decoder = loader.loadClass("dev.flatdump.source.RawOrgDecoder");
      Class<?> builder = loader.loadClass("dev.flatdump.encode.FlatBufferOrgsBuilder");
      Class<?> dedup = loader.loadClass("dev.flatdump.encode.DedupOptions");
      Object all = dedup.getField("ALL").get(null);
      return new Build(classes,
          LOOKUP.findConstructor(decoder, MethodType.methodType(void.class)),
          LOOKUP.findVirtual(decoder, "decode", MethodType.methodType(org, RawBsonDocument.class)),
          MethodHandles.insertArguments(LOOKUP.findConstructor(builder,
              MethodType.methodType(void.class, dedup, int.class)), 0, all, 32 << 20),
          LOOKUP.findVirtual(builder, "add", MethodType.methodType(void.class, org)),
          LOOKUP.findVirtual(builder, "finish", MethodType.methodType(java.nio.ByteBuffer.class)));
    }

    /** Decodes and encodes every document with new objects, as a fresh shard; its size. */
    long run(List<RawBsonDocument> documents) throws Throwable {
      Object d = newDecoder.invoke();
      Object b = newBuilder.invoke();
      for (RawBsonDocument document : documents) {
        add.invoke(b, decode.invoke(d, document));
      }
      return ((java.nio.ByteBuffer) finish.invoke(b)).remaining();
    }
  }

  /** A class loader of its own for one build's classes; the dependencies come from the class path. */
  private static ClassLoader loader(String classes) throws Exception {
    return new URLClassLoader(new URL[] {Path.of(classes).toUri().toURL()},
        ClassLoader.getSystemClassLoader());
  }

  /** The documents, made with the first build's generator and codec, as {@code flatdump-bench cpu} does. */
  private static List<RawBsonDocument> documents(String classes, String profile, int count)
      throws Throwable {
    ClassLoader loader = loader(classes);
    Class<?> profiles = loader.loadClass("dev.flatdump.sample.Profile");
    Class<?> generatorClass = loader.loadClass("dev.flatdump.sample.OrgGenerator");
    Class<?> org = loader.loadClass("dev.flatdump.Org");
    Class<?> codecClass = loader.loadClass("dev.flatdump.source.OrgCodec");
    Object p = profiles.getMethod("valueOf", String.class)
        .invoke(null, profile.toUpperCase(Locale.ROOT));
    Object generator = generatorClass.getConstructor(profiles, long.class).newInstance(p, 42L);
    Object codec = codecClass.getConstructor().newInstance();
    var idOf = generatorClass.getMethod("idOf", long.class);
    var next = generatorClass.getMethod("next");
    var encode = codecClass.getMethod("encode", BsonWriter.class, BsonValue.class, org);
    List<RawBsonDocument> documents = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      var out = new BasicOutputBuffer();
      encode.invoke(codec, new BsonBinaryWriter(out),
          new BsonObjectId((ObjectId) idOf.invoke(generator, (long) i)), next.invoke(generator));
      documents.add(new RawBsonDocument(out.toByteArray()));
    }
    return documents;
  }

  public static void main(String[] args) throws Throwable {
    if (args.length != 5) {
      System.err.println("usage: AbCpu article|realistic ORGS ROUNDS CLASSES_A CLASSES_B");
      System.exit(2);
    }
    int orgs = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    List<RawBsonDocument> documents = documents(args[3], args[0], orgs);
    Build[] builds = {Build.load(args[3]), Build.load(args[4])};
    var threads = ManagementFactory.getThreadMXBean();
    long[][] nanos = new long[2][rounds];
    long[] sizes = new long[2];
    for (int round = -3; round < rounds; round++) {
      for (int k = 0; k < 2; k++) {
        int i = (round & 1) == 0 ? k : 1 - k; // who goes first alternates
        long before = threads.getCurrentThreadCpuTime();
        sizes[i] = builds[i].run(documents);
        long cpu = threads.getCurrentThreadCpuTime() - before;
        if (round >= 0) {
          nanos[i][round] = cpu / orgs;
        }
      }
    }
    for (int i = 0; i < 2; i++) {
      long[] sorted = nanos[i].clone();
      Arrays.sort(sorted);
      System.out.printf(Locale.ROOT,
          "%s: %,d bytes; ns per document: fastest %,d, p25 %,d, median %,d%n", builds[i].name(),
          sizes[i], sorted[0], sorted[rounds / 4], sorted[rounds / 2]);
    }
    int faster = 0;
    double logs = 0;
    for (int r = 0; r < rounds; r++) {
      faster += nanos[1][r] < nanos[0][r] ? 1 : 0;
      logs += Math.log((double) nanos[1][r] / nanos[0][r]);
    }
    System.out.printf(Locale.ROOT, "second faster in %d of %d rounds; geometric mean second / first %.3f%n",
        faster, rounds, Math.exp(logs / rounds));
  }
}
