package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code flatdump unpack}'s usage and I/O errors: one line each, no stack trace. */
class UnpackCommandTest {

  @TempDir Path dir;

  @Test
  void anOutThatIsAFileIsBadUsage() throws Exception {
    Path copy = Files.write(dir.resolve("shard-00000.fbc"), new byte[] {1, 2, 3});
    Files.write(dir.resolve("s.bfbs"), new byte[] {4});
    Path file = Files.write(dir.resolve("afile"), new byte[0]);
    CliRun run = CliRun.of("unpack", copy.toString(), "--out", file.toString());
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("--out " + file + " is not a directory").doesNotContain("\tat ");
    CliRun under = CliRun.of("unpack", copy.toString(), "--out", file.resolve("sub").toString());
    assertThat(under.exitCode()).as(under.toString()).isEqualTo(2);
    assertThat(under.err()).contains("cannot be made a directory").doesNotContain("\tat ");
  }

  @Test
  void aFileThatCannotBeReadIsOneLine() throws Exception {
    Path copy = Files.write(dir.resolve("shard-00000.fbc"), new byte[] {1, 2, 3});
    Files.createDirectories(dir.resolve("s.bfbs")); // the only .bfbs beside it: a directory
    CliRun run = CliRun.of("unpack", copy.toString());
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.err()).contains("flatdump: cannot unpack " + copy).doesNotContain("\tat ");
    assertThat(dir.resolve("shard-00000.fb")).doesNotExist();
  }
}
