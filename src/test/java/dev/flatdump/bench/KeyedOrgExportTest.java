package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.artifact.SchemaFiles;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyedOrgExportTest {

  @Test
  void addsTheKeyAsTheFirstFieldOfOrganizationAndDeclaresBson() {
    String bundled = new String(SchemaFiles.bundled().text(), StandardCharsets.UTF_8);

    String keyed = KeyedOrgExport.keyedSchema(bundled);

    assertThat(keyed)
        .startsWith("attribute \"bson\";\n")
        .contains(
            "table Organization {\n  id: string (bson: \"_id\", key);\n  name: string (required);")
        .contains("table Attribute {\n  id: string (required);");
    assertThat(
            keyed
                .replace(KeyedOrgExport.KEY_FIELD + "\n", "")
                .replace(KeyedOrgExport.BSON_ATTRIBUTE + "\n", ""))
        .isEqualTo(bundled);
  }

  @Test
  void refusesASchemaWithoutOrganizationOrWithAKey() {
    assertThatThrownBy(() -> KeyedOrgExport.keyedSchema("table Other { a: int; }"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> KeyedOrgExport.keyedSchema("table Organization {\n  id: string (key);\n}"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
