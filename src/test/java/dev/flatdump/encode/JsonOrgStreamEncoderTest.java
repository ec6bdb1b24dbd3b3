package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.OrgType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.junit.jupiter.api.Test;

class JsonOrgStreamEncoderTest extends OrgStreamEncoderContract {

  @Override
  StreamFormat format() {
    return StreamFormat.JSON;
  }

  @Override
  List<Org> decode(byte[] bytes) {
    return lines(bytes).stream()
        .map(BsonDocument::parse)
        .map(JsonOrgStreamEncoderTest::toOrg)
        .toList();
  }

  @Test
  void writesOneDocumentPerLineInTheCollectionsFieldOrder() throws IOException {
    List<String> lines = lines(encode(OrgFixtures.edgeCases()));

    assertThat(lines).hasSize(3);
    BsonDocument doc = BsonDocument.parse(lines.get(1));
    assertThat(doc.keySet()).containsExactly("name", "category", "country", "type", "attributes");
    assertThat(doc.getArray("attributes").get(0).asDocument().keySet())
        .containsExactly("id", "quantity", "amount", "active", "percent", "size");
  }

  @Test
  void writesRelaxedExtendedJson() throws IOException {
    var org =
        new Org(
            "Acme",
            "tools",
            "ES",
            OrgType.BAR,
            List.of(
                new Attr("a", (byte) -128, (byte) 7, (short) 300, 0.5, true),
                new Attr("b", (byte) 0, (byte) 0, (short) 0, Double.NaN, false)));

    String line = new String(encode(List.of(org)), StandardCharsets.UTF_8);

    assertThat(line)
        .startsWith(
            "{\"name\": \"Acme\", \"category\": \"tools\", \"country\": \"ES\", \"type\": \"BAR\"")
        .contains(
            "\"quantity\": -128, \"amount\": 7, \"active\": true, \"percent\": 0.5, \"size\": 300")
        .contains("\"percent\": {\"$numberDouble\": \"NaN\"}")
        .endsWith("}\n");
  }

  private static List<String> lines(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    assertThat(text)
        .satisfiesAnyOf(t -> assertThat(t).isEmpty(), t -> assertThat(t).endsWith("\n"));
    return text.lines().toList();
  }

  private static Org toOrg(BsonDocument doc) {
    return new Org(
        doc.getString("name").getValue(),
        doc.getString("category").getValue(),
        doc.getString("country").getValue(),
        OrgType.valueOf(doc.getString("type").getValue()),
        doc.getArray("attributes").stream()
            .map(BsonValue::asDocument)
            .map(JsonOrgStreamEncoderTest::toAttr)
            .toList());
  }

  private static Attr toAttr(BsonDocument doc) {
    return new Attr(
        doc.getString("id").getValue(),
        (byte) doc.getInt32("quantity").getValue(),
        (byte) doc.getInt32("amount").getValue(),
        (short) doc.getInt32("size").getValue(),
        doc.getDouble("percent").getValue(),
        doc.getBoolean("active").getValue());
  }
}
