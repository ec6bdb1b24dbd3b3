package dev.flatdump.infer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.encode.plan.FlatcRunner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.bson.BsonDocument;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The names an inferred schema gives awkward BSON names are ones flatc generates code for in every
 * language, and the generated Java compiles and the generated Python byte-compiles: keywords of
 * every language, names that are not identifiers, a field named as its table, names equal after
 * camelCasing.
 */
class InferredNamesCompileTest {

  @TempDir static Path dir;
  static Path fbs;

  @BeforeAll
  static void infer() throws Exception {
    SchemaInference inference = new SchemaInference(false);
    inference.add(
        BsonDocument.parse(
            "{_id: 1, state: {class: 1, string: 's', 'x-y': 2}, try: 1, type: 'x', default: 2.5,"
                + " 'created-at': 1, createdAt: 2, '+1': true, _links: {self: 'a'}, AED: 1,"
                + " id: 3, import: 1, package: 2, fun: 3, 'self': 4, match: 5, def: 6, func: 7,"
                + " interface: 8, async: 9, wait: 10, hashCode: 11, init: 12, 'café': 13,"
                + " '名前': 14, '': 15, 'a\"b\\\\c': 16, 'long': {$numberLong: '1'},"
                + " records: [{object: 1, string: {string: 's'}}], __offset: 17}"));
    fbs = dir.resolve("states.fbs");
    Files.writeString(fbs, inference.schema("states", "test").fbs());
  }

  @Test
  void flatcGeneratesEveryLanguage() throws Exception {
    for (String language :
        List.of(
            "--cpp",
            "--java",
            "--kotlin",
            "--csharp",
            "--go",
            "--python",
            "--ts",
            "--rust",
            "--swift",
            "--dart")) {
      flatc(dir.resolve("gen" + language), language);
    }
  }

  @Test
  void theGeneratedJavaCompiles() throws Exception {
    Path src = flatc(dir.resolve("java"), "--java");
    Path classes = Files.createDirectories(dir.resolve("classes"));
    List<String> args =
        new ArrayList<>(
            List.of("-classpath", System.getProperty("java.class.path"), "-d", classes.toString()));
    try (Stream<Path> files = Files.walk(src)) {
      files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
    }
    assertThat(
            ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new)))
        .isZero();
  }

  @Test
  void theGeneratedPythonCompiles() throws Exception {
    Path src = flatc(dir.resolve("python"), "--python");
    Process p =
        new ProcessBuilder("python3", "-m", "compileall", "-q", src.toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(said).isZero();
  }

  private static Path flatc(Path out, String language) throws Exception {
    Process p =
        new ProcessBuilder(
                FlatcRunner.flatc().toString(), language, "-o", out.toString(), fbs.toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(language + ": " + said + "\n" + Files.readString(fbs)).isZero();
    return out;
  }
}
