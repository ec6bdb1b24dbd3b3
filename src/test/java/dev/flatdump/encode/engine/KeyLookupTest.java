package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.encode.plan.FlatcRunner;
import dev.flatdump.testing.SchemaFixtures;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vectors of keyed tables as the export writes them, read by the lookups flatc generates for Java
 * ({@code esByKey}, {@code nsByKey}): every element is found by its key, a missing key finds
 * nothing, with fast paths and sharing on and off, a scalar key given at its default or not at all
 * included.
 */
class KeyLookupTest {

  private static final String SCHEMA =
      """
      namespace lookup;
      table E { name: string (key); v: int; }
      table N { k: long = 7 (key); tag: string; }
      table R { es: [E]; ns: [N]; }
      table Root { rs: [R]; }
      root_type Root;
      """;

  private static final String DOC =
      """
      {"es": [{"name": "pear", "v": 1}, {"name": "apple", "v": 2}, {"name": "Zebra", "v": 3},
              {"name": "fig", "v": 4}, {"name": "apple2", "v": 5}, {"name": "", "v": 6}],
       "ns": [{"k": 40, "tag": "forty"}, {"k": -3, "tag": "minus three"}, {"tag": "seven"},
              {"k": 12, "tag": "twelve"}]}
      """;

  @TempDir Path dir;

  @Test
  void generatedJavaLookupsFindEveryElement() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir.resolve("schema"), SCHEMA);
    ClassLoader generated = compileGeneratedJava(fx.fbs);
    Class<?> root = generated.loadClass("lookup.Root");
    Method getRoot = root.getMethod("getRootAsRoot", ByteBuffer.class);

    for (boolean fast : new boolean[] {true, false}) {
      RecordEncoder encoder =
          new RecordEncoder(
              fx.plan,
              new Sharing(fx.plan, fast ? Sharing.Kinds.ALL : Sharing.Kinds.NONE),
              false,
              fast,
              fast,
              fast);
      ByteBuffer shard = fx.encode(encoder, List.of(SchemaFixtures.bson(DOC)));
      ByteBuffer whole = ByteBuffer.allocate(shard.remaining()).put(shard.duplicate()).flip();
      Object r = call(getRoot.invoke(null, whole), "rs", 0);

      for (String name : List.of("pear", "apple", "Zebra", "fig", "apple2", "")) {
        Object e = call(r, "esByKey", name);
        assertThat(e).as("esByKey(%s), fast paths %s", name, fast).isNotNull();
        assertThat(call(e, "name")).isEqualTo(name);
      }
      assertThat(call(r, "esByKey", "banana")).isNull();
      assertThat(call(call(r, "nsByKey", 7L), "tag")).isEqualTo("seven");
      assertThat(call(call(r, "nsByKey", -3L), "tag")).isEqualTo("minus three");
      assertThat(call(call(r, "nsByKey", 40L), "tag")).isEqualTo("forty");
      assertThat(call(r, "nsByKey", 8L)).isNull();
    }
  }

  /**
   * Records keyed by {@code _id}'s field, added in {@code _id} order through the shard builder: the
   * generated {@code rsByKey} finds each; an {@code _id} out of order is rejected, not written
   * where a lookup would miss it.
   */
  @Test
  void generatedJavaLookupsFindRecordsKeyedByTheirId() throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(
            dir.resolve("records"),
            """
            namespace keyed;
            attribute "bson";
            table Rec { id: string (bson: "_id", key); n: int; }
            table Recs { rs: [Rec]; }
            root_type Recs;
            """);
    ClassLoader generated = compileGeneratedJava(fx.fbs);
    Method getRoot = generated.loadClass("keyed.Recs").getMethod("getRootAsRecs", ByteBuffer.class);
    List<String> ids = List.of("", "A", "Zebra", "apple", "apple2", "fig", "pear", "~");
    ShardBuilder builder = new ShardBuilder(fx.plan, Sharing.Kinds.ALL, true, 1024);
    for (int i = 0; i < ids.size(); i++) {
      byte[] d = SchemaFixtures.bson("{\"_id\": \"" + ids.get(i) + "\", \"n\": " + i + "}");
      builder.add(d, 0, d.length);
    }
    byte[] back = SchemaFixtures.bson("{\"_id\": \"b\", \"n\": 99}");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> builder.add(back, 0, back.length))
        .isInstanceOfSatisfying(RejectedRecord.class, r -> assertThat(r.path()).isEqualTo("_id"));
    ByteBuffer shard = builder.finish();
    ByteBuffer whole = ByteBuffer.allocate(shard.remaining()).put(shard.duplicate()).flip();
    Object root = getRoot.invoke(null, whole);

    for (int i = 0; i < ids.size(); i++) {
      Object r = call(root, "rsByKey", ids.get(i));
      assertThat(r).as("rsByKey(%s)", ids.get(i)).isNotNull();
      assertThat(call(r, "n")).isEqualTo(i);
    }
    assertThat(call(root, "rsByKey", "b")).isNull();
    assertThat(call(root, "rsLength")).isEqualTo(ids.size());
  }

  private static Object call(Object target, String method, Object arg) throws Exception {
    Class<?> type =
        arg instanceof Integer ? int.class : arg instanceof Long ? long.class : String.class;
    return target.getClass().getMethod(method, type).invoke(target, arg);
  }

  private static Object call(Object target, String method) throws Exception {
    return target.getClass().getMethod(method).invoke(target);
  }

  /**
   * flatc's Java for the schema, compiled against this test's classpath, in a loader of its own.
   */
  private ClassLoader compileGeneratedJava(Path fbs) throws Exception {
    Path src = Files.createDirectories(dir.resolve("src"));
    Process p =
        new ProcessBuilder(
                FlatcRunner.flatc().toString(), "--java", "-o", src.toString(), fbs.toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(said).isZero();
    List<String> args = new ArrayList<>();
    Path classes = Files.createDirectories(dir.resolve("classes"));
    args.addAll(
        List.of("-classpath", System.getProperty("java.class.path"), "-d", classes.toString()));
    try (Stream<Path> files = Files.walk(src)) {
      files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
    }
    int javac =
        ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new));
    assertThat(javac).isZero();
    return new URLClassLoader(
        new URL[] {classes.toUri().toURL()}, KeyLookupTest.class.getClassLoader());
  }
}
