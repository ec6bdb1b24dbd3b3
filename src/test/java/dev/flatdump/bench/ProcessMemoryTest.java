package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessMemoryTest {

  @Test
  void readsTheResidentSizeByKind() {
    List<String> status =
        List.of(
            "Name:\tjava",
            "VmHWM:\t  900 kB",
            "VmRSS:\t  800 kB",
            "RssAnon:\t  300 kB",
            "RssFile:\t  500 kB",
            "RssShmem:\t 0 kB");

    assertThat(ProcessMemory.resident(status))
        .isEqualTo(new ProcessMemory.Resident(800 * 1024, 300 * 1024, 500 * 1024));
  }

  @Test
  void sumsTheMappingsOfTheFilesUnderADirectoryOnly() {
    List<String> smaps =
        List.of(
            "7f0000000000-7f0000100000 r--s 00000000 fd:00 1234     /out/exports/e1/a-00000.fb",
            "Size:               1024 kB",
            "Rss:                 400 kB",
            "Pss:                 200 kB",
            "Shared_Clean:        400 kB",
            "Shared_Dirty:          0 kB",
            "Private_Clean:         0 kB",
            "Private_Dirty:         0 kB",
            "THPeligible:    0",
            "VmFlags: rd sh mr mw me ms sd",
            "7f0000100000-7f0000200000 r--p 00000000 fd:00 99       /usr/lib/jvm/lib/modules",
            "Rss:                 900 kB",
            "Pss:                 900 kB",
            "Private_Clean:       900 kB",
            "7f0000200000-7f0000300000 rw-p 00000000 00:00 0 ",
            "Rss:                  50 kB",
            "Private_Dirty:        50 kB",
            "7f0000300000-7f0000380000 r--s 00000000 fd:00 1235     /out/exports/e2/a-00000.fb",
            "Rss:                 100 kB",
            "Pss:                 100 kB",
            "Shared_Clean:          0 kB",
            "Private_Clean:       100 kB");

    assertThat(ProcessMemory.mapped(smaps, "/out/"))
        .isEqualTo(new ProcessMemory.Mapped(500 * 1024, 300 * 1024, 400 * 1024, 100 * 1024));
  }
}
