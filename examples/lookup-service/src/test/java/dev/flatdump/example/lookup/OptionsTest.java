package dev.flatdump.example.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OptionsTest {

  @Test
  void parsesEveryOptionAndDefaultsThePollToOneSecond() {
    assertThat(Options.parse("--dir", "/data/orgs", "--port", "8080"))
        .isEqualTo(new Options(Path.of("/data/orgs"), 8080, Duration.ofSeconds(1), List.of()));
    Options o =
        Options.parse(
            "--port",
            "0",
            "--poll",
            "0.25",
            "--field",
            "tag:6:string,n:8:long",
            "--dir",
            "out",
            "--field",
            "ok:10:BOOL");
    assertThat(o.poll()).isEqualTo(Duration.ofMillis(250));
    assertThat(o.fields())
        .containsExactly(
            new Field("tag", 6, Field.Type.STRING),
            new Field("n", 8, Field.Type.LONG),
            new Field("ok", 10, Field.Type.BOOL));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--port 80                         | --dir is required",
        "--dir out                         | --port is required",
        "--dir out --port                  | --port needs a value",
        "--dir out --port 80 --verbose x   | unknown option: --verbose",
        "--dir out --port eighty           | --port must be a number, not 'eighty'",
        "--dir out --port 70000            | --port must be 0 to 65535, not 70000",
        "--dir out --port 80 --poll 0      | --poll must be positive",
        "--dir out --port 80 --poll 1s     | --poll must be seconds (e.g. 1 or 0.5), not '1s'",
        "--dir out --port 80 --poll 0.0001 | --poll must be seconds",
        "--dir out --port 80 --field tag   | --field must be NAME:VOFFSET:TYPE, not 'tag'",
        "--dir out --port 80 --field t:x:int | --field t:x:int: VOFFSET must be a number",
        "--dir out --port 80 --field t:5:int | VOFFSET must be even, 4 to 65534",
        "--dir out --port 80 --field t:2:int | VOFFSET must be even, 4 to 65534",
        "--dir out --port 80 --field t:6:float | TYPE must be string, long, int, double or bool, not 'float'",
        "--dir out --port 80 --field :6:int | NAME is empty",
      })
  void refusesAMistakeSayingWhich(String args, String message) {
    assertThatThrownBy(() -> Options.parse(args.trim().split(" +")))
        .isInstanceOf(Options.UsageException.class)
        .hasMessageContaining(message.trim());
  }
}
