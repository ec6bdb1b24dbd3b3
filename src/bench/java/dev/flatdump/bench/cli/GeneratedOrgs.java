package dev.flatdump.bench.cli;

import dev.flatdump.bench.samples.Profile;
import picocli.CommandLine.Option;

/** The options of the benchmarks that generate their organizations in memory: a picocli mixin. */
final class GeneratedOrgs {

  @Option(
      names = "--profile",
      required = true,
      paramLabel = "PROFILE",
      description = "article or realistic.")
  Profile profile;

  @Option(names = "--orgs", required = true, paramLabel = "N", description = "Organizations.")
  int orgs;

  @Option(
      names = "--seed",
      defaultValue = "42",
      paramLabel = "S",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed;
}
