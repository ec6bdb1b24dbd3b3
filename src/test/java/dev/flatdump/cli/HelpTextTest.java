package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The {@code --help} of every command, as a user reads it in an 80-column terminal. */
class HelpTextTest {

  @Test
  void listsEachSubcommandWithAWholeSentenceOnOneLine() {
    List<String> checked = new ArrayList<>();
    for (CommandLine parent : commands()) {
      String usage = parent.getUsageMessage(CommandLine.Help.Ansi.OFF);
      List<String> lines = usage.lines().toList();
      for (Map.Entry<String, CommandLine> sub : parent.getSubcommands().entrySet()) {
        if (sub.getKey().equals("help")
            || sub.getValue().getCommandSpec().usageMessage().hidden()) {
          continue; // picocli's own, or hidden on purpose (flatdump-bench reader-child)
        }
        Pattern entry = Pattern.compile("^  " + Pattern.quote(sub.getKey()) + " {2,}(\\S.*)$");
        int at = indexOf(lines, entry);
        assertThat(at)
            .as("%s lists %s:%n%s", parent.getCommandName(), sub.getKey(), usage)
            .isNotNegative();
        String summary = entry.matcher(lines.get(at)).replaceFirst("$1");
        assertThat(summary)
            .as("%s's summary in the list of %s", sub.getKey(), parent.getCommandName())
            .endsWith(".")
            .isEqualTo(sub.getValue().getCommandSpec().usageMessage().description()[0]);
        assertThat(at + 1 == lines.size() || lines.get(at + 1).matches("^  \\S.*"))
            .as("%s's summary goes on past its line:%n%s", sub.getKey(), usage)
            .isTrue();
        checked.add(sub.getKey());
      }
    }
    assertThat(checked).contains("export", "verify", "check", "codecs", "cpu");
  }

  @Test
  void wrapsNoWordAtItsDot() {
    for (CommandLine command : commands()) {
      String usage = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
      assertThat(usage.lines())
          .as("help of %s", command.getCommandName())
          .noneMatch(line -> line.matches(".*[ *]\\.$")); // "ends in ." + "gz)" on the next line
    }
  }

  @Test
  void inferSaysAPathOfSeveralTypesBecomesAUnion() {
    String usage = new CommandLine(new InferCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    assertThat(usage.replaceAll("\\s+", " "))
        .doesNotContain("majority")
        .contains("becomes a union of one wrapper per kind, so that no document is rejected");
  }

  private static int indexOf(List<String> lines, Pattern p) {
    for (int i = 0; i < lines.size(); i++) {
      if (p.matcher(lines.get(i)).matches()) {
        return i;
      }
    }
    return -1;
  }

  /** flatdump's commands and the benchmarks' ({@code flatdump-bench}), each with all below it. */
  private static List<CommandLine> commands() {
    List<CommandLine> all =
        new ArrayList<>(commands(Flatdump.commandLine(new String[0], Map.of())));
    all.addAll(
        commands(
            Flatdump.commandLine(
                new dev.flatdump.bench.cli.FlatdumpBench(), new String[0], Map.of())));
    return all;
  }

  /** The command and all below it. */
  private static List<CommandLine> commands(CommandLine root) {
    List<CommandLine> all = new ArrayList<>();
    all.add(root);
    for (CommandLine sub : root.getSubcommands().values()) {
      if (!sub.getCommandName().equals("help")) {
        all.addAll(commands(sub));
      }
    }
    return all;
  }
}
