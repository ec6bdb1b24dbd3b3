package dev.flatdump.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The names {@link GeneratedJava} expects are those flatc 2.0.8 generates, in a namespace. */
class GeneratedJavaTest {

  private static final List<String> NAMES =
      List.of(
          "created_at",
          "_links",
          "HTML_url",
          "Foo",
          "a__b",
          "x_1",
          "x1a",
          "aBC",
          "ABc",
          "a1_b",
          "x_Y",
          "a_",
          "fooBar_baz",
          "class",
          "default",
          "native_",
          "Int",
          "get_type",
          "__x");

  @Test
  void namesTheAccessorsAsFlatcDoes(@TempDir Path dir) throws Exception {
    StringBuilder fields = new StringBuilder();
    for (String n : NAMES) {
      fields.append(n).append(": int = null; ").append(n).append("_v: [ubyte]; ");
    }
    Path fbs =
        Files.writeString(
            dir.resolve("names.fbs"),
            "namespace a.B_c;\nunion U { W }\ntable W { value: int; }\ntable T { "
                + fields
                + "u_: U; }\nroot_type T;\n");

    Set<String> methods =
        Arrays.stream(GeneratedJava.of(fbs).type("a.B_c.T").getMethods())
            .map(Method::getName)
            .collect(Collectors.toSet());

    for (String n : NAMES) {
      assertThat(methods)
          .as(n)
          .contains(
              GeneratedJava.getter(n),
              GeneratedJava.has(n),
              GeneratedJava.getter(n + "_v") + "Length",
              GeneratedJava.getter(n + "_v") + "AsByteBuffer",
              GeneratedJava.vector(n + "_v"));
    }
    assertThat(methods).contains("u_type", GeneratedJava.getter("u__type"), "u_");
    assertThat(GeneratedJava.getter("class")).isEqualTo("class_");
    assertThat(GeneratedJava.getter("HTML_url")).isEqualTo("htmlUrl");
    assertThat(GeneratedJava.vector("native_")).isEqualTo("native_vector");
  }
}
