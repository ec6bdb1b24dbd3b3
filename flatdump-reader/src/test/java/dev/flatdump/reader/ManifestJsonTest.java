package dev.flatdump.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestJsonTest {

  @Test
  void parsesObjectsArraysStringsNumbersAndLiterals() {
    Object v =
        ManifestJson.parse(
            " {\"a\" : [1, -2, 3.5e2, true, false, null], \"b\\u00e9\\n\\\"\": {}, \"c\": []} ");
    assertThat(v)
        .isEqualTo(
            Map.of(
                "a",
                java.util.Arrays.asList(1L, -2L, 350.0, true, false, null),
                "bé\n\"",
                Map.of(),
                "c",
                List.of()));
  }

  @Test
  void saysWhereTheTextIsNotJson() {
    assertThatThrownBy(() -> ManifestJson.parse("{\"a\": 1,}"))
        .hasMessage("a member name expected at character 8");
    assertThatThrownBy(() -> ManifestJson.parse("[1 2]"))
        .hasMessage("',' or ']' expected at character 4");
    assertThatThrownBy(() -> ManifestJson.parse("{} x"))
        .hasMessage("text after the JSON value at character 3");
    assertThatThrownBy(() -> ManifestJson.parse("\"abc"))
        .hasMessage("unexpected end at character 4");
  }

  @Test
  void takesTheShardsInOrderAndTheSchemasFiles() {
    String json =
        """
        {"formatVersion": 1,
         "schema": {"file": "o.fbs", "sha256": "x", "fileIdentifier": "ORGS", "binary": "o.bfbs"},
         "files": [
          {"name": "o-00000.fb", "format": "flatbuffers", "bytes": 10, "sha256": "%s", "shard": 0, "records": 3},
          {"name": "o-00000.fb.gz", "format": "gzip", "bytes": 5, "sha256": "%s", "shard": 0, "records": 3},
          {"name": "o-00001.fb", "format": "flatbuffers", "bytes": 12, "sha256": "%s", "shard": 1, "records": 4},
          {"name": "rejects.jsonl", "format": "jsonl", "bytes": 0, "sha256": "%s", "shard": null, "records": 0}
         ]}
        """
            .formatted("a".repeat(64), "b".repeat(64), "c".repeat(64), "d".repeat(64));
    ExportManifest m = ExportManifest.of(ManifestJson.parse(json));
    assertThat(m.schemaFile()).isEqualTo("o.fbs");
    assertThat(m.binarySchemaFile()).isEqualTo("o.bfbs");
    assertThat(m.fileIdentifier()).isEqualTo("ORGS");
    assertThat(m.shards())
        .containsExactly(
            new ExportManifest.Shard("o-00000.fb", 10, "a".repeat(64), 3, null, null),
            new ExportManifest.Shard("o-00001.fb", 12, "c".repeat(64), 4, null, null));
    assertThat(m.records()).isEqualTo(7);
  }

  @Test
  void refusesAShardNameOutsideTheExport() {
    assertThatThrownBy(() -> new ExportManifest.Shard("../x.fb", 1, "a".repeat(64), 1, null, null))
        .hasMessageContaining("not a file name of the export: '../x.fb'");
  }
}
