package dev.flatdump.encode.plan;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The defaults a {@code .fbs} declares, as written, for the ones flatc 2.0.8's binary schema cannot
 * hold: a {@code ulong} default of 2^63 or more (stored as 0), of an enum's value too, and a {@code
 * -0.0} float or double default (stored as 0.0). A plan taken from that binary schema would leave
 * out the values equal to the stored default, which every reader of the user's schema then reads as
 * the declared one; so {@link #refuseLost} refuses such a schema at load, naming the field.
 *
 * <p>Reads the schema and its includes with a small scanner of the grammar's declarations ({@code
 * namespace}, {@code include}, {@code table} and {@code struct} bodies; everything else is skipped
 * by its braces or semicolon). flatc has already accepted the text, so the scanner only needs to
 * find each field's {@code = value}. Stateless.
 */
final class DeclaredDefaults {

  private DeclaredDefaults() {}

  /**
   * Refuses the plan's fields whose declared default the binary schema lost.
   *
   * @throws SchemaException naming the first such field
   */
  static void refuseLost(SchemaPlan plan, Path fbs) {
    Map<String, String> declared = read(fbs);
    for (TablePlan t : plan.tables()) {
      for (FieldPlan f : t.fields()) {
        String text = declared.get(t.name() + "." + f.name());
        if (text == null || f.deprecated()) {
          continue;
        }
        String lost = lost(plan, f, text);
        if (lost != null) {
          throw new SchemaException(
              plan.source()
                  + ": "
                  + t.path(f)
                  + " declares the default "
                  + text
                  + ", which flatc "
                  + FlatcRunner.VERSION
                  + "'s binary schema stores as "
                  + lost
                  + ": the export would leave out the values equal to "
                  + lost
                  + " that readers of the schema read as "
                  + text
                  + ". Declare another default, or make the field optional (= null)");
        }
      }
    }
  }

  /**
   * What the binary schema holds instead of {@code text}, when it lost it; else null. An integer
   * default (of an enum too, by name or number) is compared with the stored one as bits.
   */
  private static String lost(SchemaPlan plan, FieldPlan f, String text) {
    switch (f.kind()) {
      case BYTE, UBYTE, SHORT, USHORT, INT, UINT, LONG, ULONG -> {
        BigInteger number = integer(text);
        Long declared = number != null ? Long.valueOf(number.longValue()) : null;
        if (declared == null && f.enumIndex() >= 0) {
          String name = text.substring(text.lastIndexOf('.') + 1); // E.Name or Name
          declared = plan.enums().get(f.enumIndex()).byName().get(name);
        }
        if (declared != null && declared != f.defaultInteger()) {
          return f.kind() == FieldKind.ULONG
              ? Long.toUnsignedString(f.defaultInteger())
              : Long.toString(f.defaultInteger());
        }
      }
      case FLOAT, DOUBLE -> {
        if (Double.doubleToRawLongBits(f.defaultReal()) == 0 && negativeZero(text)) {
          return "0.0";
        }
      }
      default -> {}
    }
    return null;
  }

  private static BigInteger integer(String text) {
    String t = text.startsWith("+") ? text.substring(1) : text;
    try {
      if (t.startsWith("0x") || t.startsWith("0X")) {
        return new BigInteger(t.substring(2), 16);
      }
      return new BigInteger(t);
    } catch (NumberFormatException e) {
      return null; // an enum value's name: not a number this check reads
    }
  }

  private static boolean negativeZero(String text) {
    try {
      return Double.doubleToRawLongBits(Double.parseDouble(text)) == Long.MIN_VALUE;
    } catch (NumberFormatException e) {
      return false; // nan, inf, a name
    }
  }

  /**
   * Every field's declared default, by {@code namespace.Type.field}, from the file and includes.
   */
  static Map<String, String> read(Path fbs) {
    Map<String, String> out = new HashMap<>();
    read(fbs.toAbsolutePath().normalize(), fbs.toAbsolutePath().getParent(), out, new HashSet<>());
    return out;
  }

  private static void read(Path file, Path includeDir, Map<String, String> out, Set<Path> seen) {
    if (!seen.add(file)) {
      return;
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return; // flatc read it; what cannot be read here is not checked
    }
    List<String> tokens = tokens(text);
    String namespace = "";
    int i = 0;
    while (i < tokens.size()) {
      String word = tokens.get(i);
      switch (word) {
        case "include" -> {
          String name = unquote(at(tokens, i + 1));
          Path beside = file.getParent().resolve(name).normalize();
          read(
              Files.isRegularFile(beside) ? beside : includeDir.resolve(name),
              includeDir,
              out,
              seen);
          i = skipStatement(tokens, i);
        }
        case "namespace" -> {
          String ns = at(tokens, i + 1);
          namespace = ns.equals(";") ? "" : ns;
          i = skipStatement(tokens, i);
        }
        case "table", "struct" ->
            i = body(tokens, i + 2, qualified(namespace, at(tokens, i + 1)), out);
        default -> i = skipStatement(tokens, i);
      }
    }
  }

  private static String qualified(String namespace, String name) {
    return namespace.isEmpty() ? name : namespace + "." + name;
  }

  /**
   * Reads a table's body from its metadata or {@code {}}; returns the index after its {@code }}.
   */
  private static int body(List<String> tokens, int i, String type, Map<String, String> out) {
    while (i < tokens.size() && !tokens.get(i).equals("{")) {
      i++;
    }
    i++;
    while (i < tokens.size() && !tokens.get(i).equals("}")) {
      String field = tokens.get(i);
      int end = i;
      int parens = 0;
      String value = null;
      while (end < tokens.size()) {
        String t = tokens.get(end);
        if (t.equals("(")) {
          parens++;
        } else if (t.equals(")")) {
          parens--;
        } else if (parens == 0 && t.equals("=") && value == null) {
          value = unquote(at(tokens, end + 1)); // flatc takes a default quoted too
        } else if (parens == 0 && (t.equals(";") || t.equals("}"))) {
          break;
        }
        end++;
      }
      if (value != null) {
        out.put(type + "." + field, value);
      }
      i = end < tokens.size() && tokens.get(end).equals(";") ? end + 1 : end;
    }
    return i + 1;
  }

  /** The index after the statement at {@code i}: past its {@code ;}, or past its braces. */
  private static int skipStatement(List<String> tokens, int i) {
    int depth = 0;
    for (int j = i; j < tokens.size(); j++) {
      String t = tokens.get(j);
      if (t.equals("{")) {
        depth++;
      } else if (t.equals("}")) {
        depth--;
        if (depth == 0) {
          return j + 1;
        }
      } else if (t.equals(";") && depth == 0) {
        return j + 1;
      }
    }
    return tokens.size();
  }

  private static String at(List<String> tokens, int i) {
    return i < tokens.size() ? tokens.get(i) : "";
  }

  /** A string literal's text, {@code "..."} or {@code '...'} (flatc takes both); else as is. */
  private static String unquote(String s) {
    boolean quoted =
        s.length() >= 2
            && (s.charAt(0) == '"' || s.charAt(0) == '\'')
            && s.charAt(s.length() - 1) == s.charAt(0);
    return quoted ? s.substring(1, s.length() - 1) : s;
  }

  /**
   * The schema's tokens: words and numbers (letters, digits, {@code _ . + -}), string literals
   * whole (in double or single quotes), and each other character alone; comments and white space
   * dropped.
   */
  static List<String> tokens(String s) {
    List<String> out = new ArrayList<>();
    int n = s.length();
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
        while (i < n && s.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
        int close = s.indexOf("*/", i + 2);
        i = close < 0 ? n : close + 2;
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < n && s.charAt(j) != c) {
          j += s.charAt(j) == '\\' ? 2 : 1;
        }
        out.add(s.substring(i, Math.min(n, j + 1)));
        i = j + 1;
      } else if (isWord(c)) {
        int j = i;
        while (j < n && isWord(s.charAt(j))) {
          j++;
        }
        out.add(s.substring(i, j));
        i = j;
      } else {
        out.add(String.valueOf(c));
        i++;
      }
    }
    return out;
  }

  private static boolean isWord(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '+' || c == '-';
  }
}
