package dev.flatdump.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Where an option's value comes from when the command line does not give it, in this order: the
 * environment ({@code --shard-size} is {@code FLATDUMP_SHARD_SIZE}), then the job file ({@code
 * shard-size=...} in a {@code .properties} file named by {@code --job-file} or {@code
 * FLATDUMP_JOB_FILE}), then the option's built-in default. The command line always wins.
 */
final class OptionSources implements IDefaultValueProvider {

  static final String JOB_FILE_OPTION = "--job-file";
  static final String JOB_FILE_ENV = "FLATDUMP_JOB_FILE";

  private final Map<String, String> env;
  private final Properties jobFile;
  private final Path jobFilePath;

  private OptionSources(Map<String, String> env, Properties jobFile, Path jobFilePath) {
    this.env = env;
    this.jobFile = jobFile;
    this.jobFilePath = jobFilePath;
  }

  /** Finds the job file in {@code args} (or the environment) and reads it. */
  static OptionSources of(String[] args, Map<String, String> env) {
    Path file = jobFile(args, env);
    Properties props = new Properties();
    if (file != null) {
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        props.load(r);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read job file " + file + ": " + e.getMessage());
      }
    }
    return new OptionSources(env, props, file);
  }

  private static Path jobFile(String[] args, Map<String, String> env) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals(JOB_FILE_OPTION) && i + 1 < args.length) {
        return Path.of(args[i + 1]);
      }
      if (args[i].startsWith(JOB_FILE_OPTION + "=")) {
        return Path.of(args[i].substring(JOB_FILE_OPTION.length() + 1));
      }
    }
    String fromEnv = env.get(JOB_FILE_ENV);
    return fromEnv == null || fromEnv.isBlank() ? null : Path.of(fromEnv);
  }

  /** The environment variable for an option: {@code --shard-size} → {@code FLATDUMP_SHARD_SIZE}. */
  static String envName(String longOption) {
    return "FLATDUMP_" + key(longOption).toUpperCase(Locale.ROOT).replace('-', '_');
  }

  /** The job-file key for an option: {@code --shard-size} → {@code shard-size}. */
  static String key(String longOption) {
    return longOption.replaceFirst("^-+", "");
  }

  /** Options whose relative paths in a job file are relative to the job file's directory. */
  private static final java.util.Set<String> BESIDE_JOB_FILE = java.util.Set.of("--schema");

  @Override
  public String defaultValue(ArgSpec arg) {
    if (!(arg instanceof OptionSpec option) || option.longestName().equals(JOB_FILE_OPTION)) {
      return arg.defaultValue();
    }
    String name = option.longestName();
    if (!name.startsWith("--") || option.usageHelp() || option.versionHelp()) {
      return arg.defaultValue();
    }
    String fromEnv = env.get(envName(name));
    if (fromEnv != null && !fromEnv.isBlank()) { // FLATDUMP_X= (empty) leaves the option unset
      return fromEnv;
    }
    String fromFile = jobFile.getProperty(key(name));
    if (fromFile != null) {
      String value = fromFile.trim();
      if (BESIDE_JOB_FILE.contains(name) && !value.isEmpty() && !Path.of(value).isAbsolute()) {
        // a schema named in a job file lies beside it, wherever the job runs from
        Path dir = jobFilePath.toAbsolutePath().getParent();
        return dir.resolve(value).normalize().toString();
      }
      return value;
    }
    return arg.defaultValue();
  }

  /**
   * Fails when the job file has a key that is not an option of {@code command}: a typo would
   * otherwise be silently ignored.
   */
  void requireKnownKeys(picocli.CommandLine.Model.CommandSpec command) {
    var known = new java.util.TreeSet<String>();
    for (OptionSpec o : command.options()) {
      known.add(key(o.longestName()));
    }
    for (String k : jobFile.stringPropertyNames()) {
      if (!known.contains(k)) {
        throw new IllegalArgumentException(
            "unknown key '"
                + k
                + "' in job file "
                + jobFilePath
                + " (known: "
                + String.join(", ", known)
                + ")");
      }
    }
  }
}
