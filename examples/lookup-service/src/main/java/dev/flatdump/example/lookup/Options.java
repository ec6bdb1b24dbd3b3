package dev.flatdump.example.lookup;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The service's command line, parsed and checked: what {@link LookupService#start} needs.
 *
 * @param dir the output directory the export job publishes into (or one export's directory)
 * @param port the TCP port to listen on, all interfaces; 0 for any free port
 * @param poll how often the pointer is followed again where no change of it is heard at once (and
 *     the directory tried before its first export)
 * @param fields the record's fields that answers render
 */
public record Options(Path dir, int port, Duration poll, List<Field> fields) {

  static final String USAGE =
      """
      Usage: lookup-service --dir DIR --port N [--poll SECONDS] [--field NAME:VOFFSET:TYPE]...

      Answers GET /records/{key} from the current export in DIR (the output directory
      `flatdump export --out DIR` publishes into), and reloads when a new one is published.

        --dir DIR        the output directory (its `current` link or CURRENT file is followed)
        --port N         the port to listen on, all interfaces; 0 for any free port
        --poll SECONDS   the longest wait for a new export where the file system cannot
                         tell of it at once (default 1; fractions allowed)
        --field SPEC     a field of the record to put in answers, NAME:VOFFSET:TYPE, repeatable
                         or comma-separated; VOFFSET is 4 + 2 * the field's id (its position
                         in the table, from 0), TYPE one of string, long, int, double, bool
        --help           print this and exit

      Endpoints: GET /records/{key} (the key URL-encoded), GET /health.
      """;

  public Options {
    Objects.requireNonNull(dir, "Options.dir");
    Objects.requireNonNull(poll, "Options.poll");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be 0 to 65535, not " + port);
    }
    if (poll.isNegative() || poll.isZero()) {
      throw new IllegalArgumentException("--poll must be positive, not " + poll);
    }
    fields = List.copyOf(fields);
  }

  /** A mistake in the command line, said in words for the user. */
  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /**
   * Parses the arguments; {@code --help} is the caller's to check first.
   *
   * @throws UsageException saying which option is missing, unknown or wrong, and why
   */
  static Options parse(String... args) {
    Path dir = null;
    Integer port = null;
    Duration poll = Duration.ofSeconds(1);
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      if (!List.of("--dir", "--port", "--poll", "--field").contains(option)) {
        throw new UsageException("unknown option: " + option);
      }
      if (i + 1 == args.length) {
        throw new UsageException(option + " needs a value");
      }
      String value = args[++i];
      switch (option) {
        case "--dir" -> dir = Path.of(value);
        case "--port" -> port = port(value);
        case "--poll" -> poll = seconds(value);
        default -> {
          for (String spec : value.split(",", -1)) {
            fields.add(field(spec));
          }
        }
      }
    }
    if (dir == null || port == null) {
      throw new UsageException(dir == null ? "--dir is required" : "--port is required");
    }
    try {
      return new Options(dir, port, poll, fields);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  private static int port(String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new UsageException("--port must be a number, not '" + value + "'");
    }
  }

  private static Duration seconds(String value) {
    try {
      return Duration.ofMillis(new BigDecimal(value).movePointRight(3).longValueExact());
    } catch (NumberFormatException | ArithmeticException e) {
      throw new UsageException("--poll must be seconds (e.g. 1 or 0.5), not '" + value + "'");
    }
  }

  private static Field field(String spec) {
    String[] parts = spec.split(":", -1);
    if (parts.length != 3) {
      throw new UsageException("--field must be NAME:VOFFSET:TYPE, not '" + spec + "'");
    }
    try {
      return new Field(parts[0], Integer.parseInt(parts[1]), Field.Type.of(parts[2]));
    } catch (NumberFormatException e) {
      throw new UsageException("--field " + spec + ": VOFFSET must be a number");
    } catch (IllegalArgumentException e) {
      throw new UsageException("--field " + spec + ": " + e.getMessage());
    }
  }
}
