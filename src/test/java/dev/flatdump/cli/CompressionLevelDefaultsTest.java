package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.compress.GzipCompression;
import dev.flatdump.artifact.compress.ZstdCompression;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The levels a user gets without asking: the export's compressed copies and {@code flatdump-bench
 * refs} (which measures what the export writes) use the compressions' own defaults, gzip 6 and zstd
 * 3, and their help says so.
 */
class CompressionLevelDefaultsTest {

  private static final CommandLine FLATDUMP = Flatdump.commandLine(new String[0], Map.of());

  @Test
  void theExportsCopiesAreGzipSixAndZstdThree() {
    CommandLine export = FLATDUMP.getSubcommands().get("export");
    assertThat(defaultOf(export, "--gzip-level")).isEqualTo("6").isEqualTo(gzipDefault());
    assertThat(defaultOf(export, "--zstd-level")).isEqualTo("3").isEqualTo(zstdDefault());
    String help = export.getUsageMessage(CommandLine.Help.Ansi.OFF);
    assertThat(help).containsPattern("--zstd-level=1-22\\s+zstd level \\(default: 3\\)");
    assertThat(help).containsPattern("--gzip-level=1-9\\s+gzip level \\(default: 6\\)");
  }

  @Test
  void benchRefsCompressesAsTheExportDoes() {
    CommandLine bench =
        Flatdump.commandLine(new dev.flatdump.bench.cli.FlatdumpBench(), new String[0], Map.of());
    CommandLine refs = bench.getSubcommands().get("refs");
    assertThat(defaultOf(refs, "--zstd-level")).isEqualTo(zstdDefault());
  }

  private static String defaultOf(CommandLine command, String option) {
    return command.getCommandSpec().findOption(option).defaultValue();
  }

  private static String gzipDefault() {
    return String.valueOf(GzipCompression.DEFAULT_LEVEL);
  }

  private static String zstdDefault() {
    return String.valueOf(ZstdCompression.DEFAULT_LEVEL);
  }
}
