package dev.flatdump.encode.engine;

import dev.flatdump.encode.engine.MappingOracle.Scalar;
import dev.flatdump.encode.engine.RandomSchemas.Kind;
import dev.flatdump.encode.plan.FlatcRunner;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Buffers read back by flatc itself ({@code flatc --json --raw-binary --strict-json
 * --defaults-json}), several in one run, and compared with {@link MappingOracle}'s values. flatc
 * prints NaN and infinities as bare words and floating-point values with a fixed precision, so
 * those words are quoted before parsing and floats compare within that precision (their bits are
 * {@link BufferRecords}' to check).
 */
final class FlatcJson {

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private FlatcJson() {}

  /** Each binary's root as flatc prints it, in the order given. */
  static List<JsonNode> decode(Path fbs, Path dir, List<Path> binaries)
      throws IOException, InterruptedException {
    Path out = Files.createDirectories(dir.resolve("json"));
    List<String> command =
        new ArrayList<>(
            List.of(
                FlatcRunner.flatc().toString(),
                "--json",
                "--raw-binary",
                "--strict-json",
                "--defaults-json",
                "-o",
                out.toString(),
                fbs.toString(),
                "--"));
    for (Path b : binaries) {
      command.add(b.toString());
    }
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("flatc --json failed: " + said);
    }
    List<JsonNode> roots = new ArrayList<>();
    for (Path b : binaries) {
      String name = b.getFileName().toString();
      String text =
          Files.readString(out.resolve(name.substring(0, name.lastIndexOf('.')) + ".json"));
      roots.add(JSON.readTree(quoteBareWords(text)));
    }
    return roots;
  }

  /** {@code nan}, {@code -nan}, {@code inf}, {@code -inf} outside strings, as JSON strings. */
  static String quoteBareWords(String text) {
    StringBuilder b = new StringBuilder(text.length());
    boolean inString = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (inString) {
        b.append(c);
        if (c == '\\') {
          b.append(text.charAt(++i));
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      if (c == '"') {
        inString = true;
        b.append(c);
        continue;
      }
      String word = null;
      for (String w : new String[] {"-nan", "+nan", "nan", "-inf", "+inf", "inf"}) {
        if (text.startsWith(w, i)) {
          word = w;
          break;
        }
      }
      if (word != null) {
        b.append('"').append(word.contains("nan") ? "nan" : word.replace("+", "")).append('"');
        i += word.length() - 1;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** The first difference between an expected value and flatc's JSON for it, or null. */
  static String diff(Object expected, JsonNode actual, String path) {
    if (expected == MappingOracle.NULL) {
      return actual == null || actual.isNull()
          ? null
          : path + ": flatc has " + actual + ", expected null";
    }
    if (actual == null || actual.isNull()) {
      return path + ": flatc has nothing, expected " + expected;
    }
    if (expected instanceof Map<?, ?> m) {
      if (!actual.isObject()) {
        return path + ": flatc has " + actual + ", expected a table or struct";
      }
      Set<String> names = new HashSet<>(actual.propertyNames());
      for (Map.Entry<?, ?> e : m.entrySet()) {
        String name = (String) e.getKey();
        names.remove(name);
        String d = diff(e.getValue(), actual.get(name), path + "." + name);
        if (d != null) {
          return d;
        }
      }
      for (String extra : names) {
        if (!actual.get(extra).isNull()) {
          return path + "." + extra + ": flatc has " + actual.get(extra) + ", expected nothing";
        }
      }
      return null;
    }
    if (expected instanceof List<?> l) {
      if (!actual.isArray() || actual.size() != l.size()) {
        return path + ": flatc has " + actual + ", expected " + l.size() + " elements " + l;
      }
      for (int i = 0; i < l.size(); i++) {
        String d = diff(l.get(i), actual.get(i), path + "[" + i + "]");
        if (d != null) {
          return d;
        }
      }
      return null;
    }
    if (expected instanceof MappingOracle.UnionTag t) {
      return actual.isString() && actual.asString().equals(t.name())
          ? null
          : path + ": flatc has " + actual + ", expected the union's type " + t.name();
    }
    if (expected instanceof String s) {
      return actual.isString() && actual.asString().equals(s)
          ? null
          : path + ": flatc has " + actual + ", expected \"" + s + "\"";
    }
    Scalar x = (Scalar) expected;
    return scalarMatches(x, actual) ? null : path + ": flatc has " + actual + ", expected " + x;
  }

  private static boolean scalarMatches(Scalar x, JsonNode a) {
    Kind k = x.kind();
    if (k == Kind.BOOL) {
      return a.isBoolean() && a.booleanValue() == (x.bits() != 0);
    }
    if (x.en() != null && x.en().nameOf(x.bits()) != null) {
      return a.isString() && a.asString().equals(x.en().nameOf(x.bits()));
    }
    if (k.integer()) {
      return a.isIntegralNumber() && a.bigIntegerValue().equals(k.value(x.bits()));
    }
    double v =
        k == Kind.FLOAT ? Float.intBitsToFloat((int) x.bits()) : Double.longBitsToDouble(x.bits());
    if (Double.isNaN(v)) {
      return a.isString() && a.asString().equals("nan");
    }
    if (Double.isInfinite(v)) {
      return a.isString() && a.asString().equals(v > 0 ? "inf" : "-inf");
    }
    if (!a.isNumber()) {
      return false;
    }
    BigDecimal printed = a.decimalValue();
    double got = printed.doubleValue();
    double tolerance =
        k == Kind.FLOAT ? Math.max(1e-6, Math.abs(v) * 1e-6) : Math.max(1e-11, Math.abs(v) * 1e-13);
    return Math.abs(got - v) <= tolerance;
  }

  /** The records of each root, by the records field's name. */
  static List<JsonNode> records(JsonNode root, String field) {
    List<JsonNode> out = new ArrayList<>();
    JsonNode recs = root.get(field);
    if (recs != null) {
      for (int i = 0; i < recs.size(); i++) {
        out.add(recs.get(i));
      }
    }
    return out;
  }
}
