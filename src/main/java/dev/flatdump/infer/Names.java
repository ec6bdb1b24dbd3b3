package dev.flatdump.infer;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Identifiers that every language flatc generates can use: fields in snake_case ({@code created-at}
 * → {@code created_at}, {@code AED} → {@code aed}), tables in PascalCase, none a keyword of flatc's
 * schema language, Java, Kotlin, C#, C++, Go, Rust, Python, TypeScript, Swift or Dart, nor a name
 * generated code already uses. A field's uniqueness is checked by its name without underscores, so
 * that generators that camelCase names cannot make two fields one.
 */
final class Names {

  private Names() {}

  // flatc's schema language and type names; Java, Kotlin; C#; C++; Go; Rust; Python; TypeScript;
  // Swift; Dart; then methods that generated code or its base classes already have
  private static final Set<String> KEYWORDS =
      words(
          """
          table struct enum union namespace root_type include attribute rpc_service
          file_identifier file_extension native_include byte ubyte short ushort int uint long
          ulong float double bool string int8 uint8 int16 uint16 int32 uint32 int64 uint64
          float32 float64 nan inf true false
          abstract assert boolean break case catch char class const continue default do else
          extends final finally for goto if implements import instanceof interface native new
          package private protected public return static strictfp super switch synchronized
          this throw throws transient try void volatile while var record yield sealed permits
          null as fun in is object typealias typeof val when companion internal
          base checked decimal delegate event explicit extern fixed foreach implicit lock
          operator out override params readonly ref sbyte sizeof stackalloc unchecked unsafe
          using virtual
          alignas alignof and and_eq asm auto bitand bitor char8_t char16_t char32_t compl
          concept consteval constexpr constinit const_cast co_await co_return co_yield
          decltype delete dynamic_cast export friend inline mutable noexcept not not_eq
          nullptr or or_eq register reinterpret_cast requires signed static_assert
          static_cast template thread_local typedef typeid typename unsigned wchar_t xor
          xor_eq
          chan defer fallthrough func go map range select type
          crate dyn fn impl let loop match mod move mut pub self trait use where async await
          become box macro priv unsized
          def del elif except from global lambda nonlocal pass raise with none
          any constructor declare get module require number set symbol of function undefined
          unknown never keyof infer
          associatedtype deinit extension fileprivate init inout open protocol rethrows
          subscript guard repeat nil
          covariant deferred dynamic external factory hide late library mixin on part rethrow
          show sync required
          hash_code equals to_string get_class clone finalize notify notify_all wait builder
          offset vtable bb bb_pos
          """);

  /** Type names besides the keywords that generated code or the runtimes already use. */
  private static final Set<String> TYPE_NAMES =
      words(
          """
          table struct builder offset vector object string class type any list map set error
          exception integer character math system void number array date option optional
          result self boolean flatbuffers constants byte_buffer union enum record records
          """);

  /** A field name for the BSON field {@code bson}, not yet made unique. */
  static String field(String bson) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < bson.length(); i++) {
      char c = bson.charAt(i);
      boolean upper = c >= 'A' && c <= 'Z';
      if (upper
          && i > 0
          && (isLowerOrDigit(bson.charAt(i - 1))
              || (i + 1 < bson.length()
                  && bson.charAt(i + 1) >= 'a'
                  && bson.charAt(i + 1) <= 'z'
                  && bson.charAt(i - 1) >= 'A'
                  && bson.charAt(i - 1) <= 'Z'))) {
        b.append('_');
      }
      if (upper) {
        b.append((char) (c + ('a' - 'A')));
      } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        b.append(c);
      } else {
        b.append('_');
      }
    }
    String name = b.toString().replaceAll("_+", "_").replaceAll("^_|_$", "");
    if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
      name = "field_" + name;
      name = name.replaceAll("_$", "");
    }
    if (KEYWORDS.contains(name) || CLASHING_SUFFIX.matcher(name).find()) {
      // flatc refuses X_length beside a vector X, X_type beside a union X and X_byte_vector beside
      // a string X: their generated accessors would clash
      return name + "_";
    }
    return name;
  }

  private static final java.util.regex.Pattern CLASHING_SUFFIX =
      java.util.regex.Pattern.compile("_(length|type|byte_vector)$");

  /** A table name from a path's last segment, singular if it names the elements of an array. */
  static String table(String segment, boolean element) {
    String snake = field(segment).replaceAll("_$", "");
    if (snake.startsWith("field_")) {
      snake = "t_" + snake.substring("field_".length());
    }
    if (element) {
      snake = singular(snake);
    }
    StringBuilder b = new StringBuilder();
    for (String part : snake.split("_")) {
      if (!part.isEmpty()) {
        b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
      }
    }
    String name = b.length() == 0 ? "Value" : b.toString();
    String lower = name.toLowerCase(Locale.ROOT);
    return KEYWORDS.contains(lower) || TYPE_NAMES.contains(lower) ? name + "Table" : name;
  }

  static String singular(String s) {
    if (s.endsWith("ies") && s.length() > 3) {
      return s.substring(0, s.length() - 3) + "y";
    }
    if (s.endsWith("sses") || s.endsWith("xes") || s.endsWith("ches") || s.endsWith("shes")) {
      return s.substring(0, s.length() - 2);
    }
    if (s.endsWith("s") && !s.endsWith("ss") && s.length() > 1) {
      return s.substring(0, s.length() - 1);
    }
    return s;
  }

  /** The key two names collide on in some generated language: no underscores, lower case. */
  static String collisionKey(String name) {
    return name.replace("_", "").toLowerCase(Locale.ROOT);
  }

  /** {@code name}, or {@code name_2}, {@code name_3}, ...: the first not yet in {@code used}. */
  static String unique(String name, Set<String> used, String separator) {
    String candidate = name;
    for (int n = 2; used.contains(collisionKey(candidate)); n++) {
      candidate = name + separator + n;
    }
    used.add(collisionKey(candidate));
    return candidate;
  }

  private static Set<String> words(String text) {
    return Set.copyOf(java.util.Arrays.asList(text.trim().split("\\s+")));
  }

  static Set<String> newUsed() {
    return new HashSet<>();
  }

  private static boolean isLowerOrDigit(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }
}
