package dev.flatdump.cli;

import com.mongodb.MongoException;
import dev.flatdump.FlatdumpException;
import dev.flatdump.source.ConnectionStrings;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** Maps what a command threw to the exit code and the one-line message a user sees. */
final class ExitCodes {

  private ExitCodes() {}

  static int forException(Throwable t) {
    return t instanceof CommandLine.ParameterException || t instanceof IllegalArgumentException
        ? Flatdump.EXIT_USAGE
        : Flatdump.EXIT_FAILED;
  }

  /**
   * Prints {@code flatdump: <message>} instead of a stack trace for errors we expect (bad values,
   * our own exception family); anything else is a bug and keeps its stack trace.
   */
  static int handleExecutionException(Exception ex, CommandLine cl, ParseResult parsed) {
    var err = cl.getErr();
    if (ex instanceof IllegalArgumentException) {
      err.println("flatdump: " + ConnectionStrings.mask(ex.getMessage()));
      // The full path of a subcommand: "flatdump-bench cpu", not "cpu".
      err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help'.");
      return Flatdump.EXIT_USAGE;
    }
    if (ex instanceof FlatdumpException) {
      err.println("flatdump: " + ConnectionStrings.mask(ex.getMessage()));
      return Flatdump.EXIT_FAILED;
    }
    if (ex instanceof MongoException) {
      err.println("flatdump: MongoDB: " + ConnectionStrings.mask(ex.getMessage()));
      return Flatdump.EXIT_FAILED;
    }
    ex.printStackTrace(err);
    return Flatdump.EXIT_FAILED;
  }
}
