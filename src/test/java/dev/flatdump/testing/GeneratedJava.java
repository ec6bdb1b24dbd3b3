package dev.flatdump.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.flatdump.encode.plan.FlatcRunner;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The Java that flatc 2.0.8 generates for a schema ({@code flatc --java}), compiled in-process
 * against the test classpath's flatbuffers-java 2.0.8 and loaded; and the names flatc gives the
 * accessors of a field. Compiled once per schema text, for the whole test run; thread-safe.
 */
public final class GeneratedJava {

  /** The keywords flatc 2.0.8's Java generator escapes with a trailing {@code _}. */
  private static final Set<String> KEYWORDS =
      Set.of(
          "abstract",
          "continue",
          "for",
          "new",
          "switch",
          "assert",
          "default",
          "goto",
          "package",
          "synchronized",
          "boolean",
          "do",
          "if",
          "private",
          "this",
          "break",
          "double",
          "implements",
          "protected",
          "throw",
          "byte",
          "else",
          "import",
          "public",
          "throws",
          "case",
          "enum",
          "instanceof",
          "return",
          "transient",
          "catch",
          "extends",
          "int",
          "short",
          "try",
          "char",
          "final",
          "interface",
          "static",
          "void",
          "class",
          "finally",
          "long",
          "strictfp",
          "volatile",
          "const",
          "float",
          "native",
          "super",
          "while");

  private static final Map<String, GeneratedJava> COMPILED = new ConcurrentHashMap<>();

  private final ClassLoader loader;
  private final Map<String, Class<?>> classes = new HashMap<>();

  private GeneratedJava(ClassLoader loader) {
    this.loader = loader;
  }

  /** The generated classes of {@code fbs}: generated and compiled the first time only. */
  public static GeneratedJava of(Path fbs) throws IOException, InterruptedException {
    String key = sha256(Files.readAllBytes(fbs));
    GeneratedJava done = COMPILED.get(key);
    if (done == null) {
      done = compile(fbs);
      COMPILED.putIfAbsent(key, done);
    }
    return done;
  }

  /** The generated class of the schema's table, struct or enum {@code qualifiedName}. */
  public synchronized Class<?> type(String qualifiedName) {
    return classes.computeIfAbsent(
        qualifiedName,
        n -> {
          try {
            return Class.forName(n, true, loader);
          } catch (ClassNotFoundException e) {
            throw new IllegalStateException("flatc generated no class " + n, e);
          }
        });
  }

  /**
   * The getter flatc 2.0.8 generates for field {@code name}: {@code created_at} → {@code
   * createdAt}, {@code class} → {@code class_}.
   */
  static String getter(String name) {
    String camel = lowerCamel(name);
    return KEYWORDS.contains(camel) ? camel + "_" : camel;
  }

  /**
   * {@code hasX()}, which an optional scalar has: the name made of {@code has_} and the field's
   * ({@code class} → {@code hasClass}).
   */
  static String has(String name) {
    return lowerCamel("has_" + name);
  }

  /**
   * {@code xVector()}, null when the vector is absent: the name made of the field's and {@code
   * _vector}, never escaped ({@code default} → {@code defaultVector}, {@code native_} → {@code
   * native_vector}).
   */
  static String vector(String name) {
    return lowerCamel(name + "_vector");
  }

  /**
   * flatc 2.0.8's field names in Java: the name is first made snake case ({@code htmlURL} → {@code
   * html_url}: each upper-case letter or digit lowered, after an underscore when it follows a
   * lower-case letter), then lower camel case (an underscore and the character after it become that
   * character in upper case; a last underscore stays).
   */
  static String lowerCamel(String name) {
    StringBuilder snake = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (i == 0) {
        snake.append(Character.toLowerCase(c));
      } else if (c == '_') {
        snake.append('_');
      } else if (!Character.isLowerCase(c)) {
        if (Character.isLowerCase(name.charAt(i - 1))) {
          snake.append('_');
        }
        snake.append(Character.toLowerCase(c));
      } else {
        snake.append(c);
      }
    }
    StringBuilder camel = new StringBuilder();
    for (int i = 0; i < snake.length(); i++) {
      char c = snake.charAt(i);
      if (c == '_' && i + 1 < snake.length()) {
        camel.append(Character.toUpperCase(snake.charAt(++i)));
      } else {
        camel.append(c);
      }
    }
    return camel.toString();
  }

  private static GeneratedJava compile(Path fbs) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("flatdump-java-reader-");
    Path sources = dir.resolve("src");
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes);
    PackageFiles.run(
        dir,
        List.of(
            FlatcRunner.flatc().toString(),
            "--java",
            "-o",
            sources.toString(),
            fbs.toAbsolutePath().toString()));
    List<String> files;
    try (Stream<Path> walk = Files.walk(sources)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toString).toList();
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("no Java compiler: run the tests on a JDK");
    }
    StringWriter said = new StringWriter();
    boolean compiled;
    try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, UTF_8)) {
      List<String> options =
          List.of(
              "-proc:none",
              "-nowarn",
              "-classpath",
              runtime().toString(),
              "-d",
              classes.toString());
      compiled =
          javac
              .getTask(said, fm, null, options, null, fm.getJavaFileObjectsFromStrings(files))
              .call();
    }
    if (!compiled) {
      throw new IllegalStateException("javac refused flatc's Java for " + fbs + ":\n" + said);
    }
    URL url = classes.toUri().toURL();
    return new GeneratedJava(
        new URLClassLoader(new URL[] {url}, GeneratedJava.class.getClassLoader()));
  }

  /** flatbuffers-java 2.0.8, the jar (or directory) the test classpath loads it from. */
  private static Path runtime() {
    try {
      return Path.of(
          com.google.flatbuffers.Table.class
              .getProtectionDomain()
              .getCodeSource()
              .getLocation()
              .toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
