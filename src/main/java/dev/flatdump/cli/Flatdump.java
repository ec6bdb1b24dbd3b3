package dev.flatdump.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code flatdump} entry point. Each subcommand is its own class in this package; this class
 * only registers them and maps outcomes to exit codes: 0 success, 1 the work failed, 2 bad usage, 3
 * an export completed with rejects within its limit.
 */
@Command(
    name = "flatdump",
    mixinStandardHelpOptions = true,
    versionProvider = Flatdump.Version.class,
    description = "Streams a MongoDB collection into compact, zero-copy FlatBuffers artifacts.",
    subcommands = {
      CommandLine.HelpCommand.class,
      ExportCommand.class,
      WorkerCommand.class,
      InspectCommand.class,
      DemoCommand.class,
      VerifyCommand.class,
      CheckCommand.class,
      PullCommand.class,
      UnpackCommand.class,
      LoadCommand.class,
      InferCommand.class,
      SchemaDiffCommand.class
    })
public final class Flatdump {

  /** The work failed (job failed, verification found differences, ...). */
  public static final int EXIT_FAILED = 1;

  /** Bad usage: unknown option, missing or invalid value. */
  public static final int EXIT_USAGE = 2;

  /**
   * {@code export} completed and published, but rejected some documents (within {@code
   * --max-rejects}): see its {@code rejects.jsonl}.
   */
  public static final int EXIT_REJECTS = 3;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs one command line and returns its exit code; never calls {@link System#exit}. */
  public static int run(String... args) {
    return run(new Flatdump(), args);
  }

  /**
   * Runs one command line of {@code root} (flatdump, or another tool built on its commands, such as
   * the benchmarks' {@code flatdump-bench}) with flatdump's option sources and exit codes.
   */
  public static int run(Object root, String... args) {
    CommandLine cl;
    try {
      cl = commandLine(root, args, System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println(nameOf(root) + ": " + e.getMessage());
      return EXIT_USAGE;
    }
    return cl.execute(args);
  }

  private static String nameOf(Object root) {
    Command c = root.getClass().getAnnotation(Command.class);
    return c == null ? "flatdump" : c.name();
  }

  /**
   * The command line with its option sources: values missing from {@code args} come from the
   * environment, then from the job file, then from the built-in defaults (see {@link
   * OptionSources}).
   */
  static CommandLine commandLine(String... args) {
    return commandLine(args, System.getenv());
  }

  static CommandLine commandLine(String[] args, java.util.Map<String, String> env) {
    return commandLine(new Flatdump(), args, env);
  }

  /**
   * The command line of {@code root} with flatdump's option sources and exit codes; {@code env} is
   * the whole environment that options may come from.
   */
  public static CommandLine commandLine(
      Object root, String[] args, java.util.Map<String, String> env) {
    CommandLine cl = new CommandLine(root);
    cl.setDefaultValueProvider(OptionSources.of(args, env));
    cl.setExitCodeExceptionMapper(ExitCodes::forException);
    cl.setExecutionExceptionHandler(ExitCodes::handleExecutionException);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    return cl;
  }

  /** The version from the jar's manifest, or "dev". */
  public static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Flatdump.class.getPackage().getImplementationVersion();
      return new String[] {"flatdump " + (v == null ? "dev" : v)};
    }
  }
}
