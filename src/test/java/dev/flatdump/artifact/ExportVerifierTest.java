package dev.flatdump.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.OrgType;
import dev.flatdump.source.Reject;
import dev.flatdump.source.SourceRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonInt32;
import org.bson.BsonValue;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportVerifierTest {

  @TempDir Path dir;

  private static Attr attr(String id, double percent) {
    return new Attr(id, (byte) 1, (byte) 2, (short) 3, percent, true);
  }

  private static Org org(int i, Attr... attrs) {
    return new Org("Org " + i, "tools", "ES", OrgType.BAR, List.of(attrs));
  }

  private static SourceRecord accepted(int id, Org org) {
    return new SourceRecord.Accepted(new BsonInt32(id), org);
  }

  private static SourceRecord rejected(int id) {
    return new SourceRecord.Rejected(reject(new BsonInt32(id)));
  }

  private static Reject reject(BsonValue id) {
    return new Reject(id, "attributes[0].quantity", "300 is not a byte");
  }

  /** An export as the source would read it: _ids 1001..1006, of which 1002 and 1005 rejected. */
  private record Export(List<SourceRecord> source, List<Org> artifact, List<Reject> rejects) {

    static Export clean() {
      var source = new ArrayList<SourceRecord>();
      var artifact = new ArrayList<Org>();
      var rejects = new ArrayList<Reject>();
      for (int i = 1; i <= 6; i++) {
        int id = 1000 + i; // distinctive in messages
        if (i == 2 || i == 5) {
          source.add(rejected(id));
          rejects.add(reject(new BsonInt32(id)));
        } else {
          Org org = org(i, attr("color", 0.5), attr("size", i));
          source.add(accepted(id, org));
          artifact.add(org);
        }
      }
      return new Export(source, artifact, rejects);
    }

    /** The same export with the artifact's org at {@code index} replaced. */
    Export withArtifactOrg(int index, Org org) {
      var changed = new ArrayList<>(artifact);
      changed.set(index, org);
      return new Export(source, changed, rejects);
    }
  }

  private ExportVerifier.Result verify(Export export) throws IOException {
    return verify(new ExportVerifier(100), export);
  }

  private ExportVerifier.Result verify(ExportVerifier verifier, Export export) throws IOException {
    var text = new StringBuilder();
    export.rejects().forEach(r -> text.append(r.toJsonLine()).append('\n'));
    Path rejects = Files.writeString(dir.resolve("rejects.jsonl"), text, StandardCharsets.UTF_8);
    return verifier.verify(export.source().iterator(), export.artifact().iterator(), rejects);
  }

  @Test
  void anExportEqualToItsSourceIsClean() throws IOException {
    ExportVerifier.Result result = verify(Export.clean());

    assertThat(result.clean()).isTrue();
    assertThat(result.differences()).isEmpty();
    assertThat(result.totalDifferences()).isZero();
    assertThat(result.compared()).isEqualTo(6);
  }

  @Test
  void anEmptyExportOfAnEmptySourceIsClean() throws IOException {
    ExportVerifier.Result result = verify(new Export(List.of(), List.of(), List.of()));

    assertThat(result.clean()).isTrue();
    assertThat(result.compared()).isZero();
  }

  @Nested
  class Fields {

    @Test
    void reportsAChangedNameWithTheIdAndBothValues() throws IOException {
      Org org = Export.clean().artifact().get(1); // _id 1003
      Org renamed = new Org("Renamed", org.category(), org.country(), org.type(), org.attributes());

      ExportVerifier.Result result = verify(Export.clean().withArtifactOrg(1, renamed));

      assertThat(result.clean()).isFalse();
      assertThat(result.totalDifferences()).isEqualTo(1);
      assertThat(result.differences())
          .singleElement(STRING)
          .contains("1003")
          .contains("name")
          .contains("Renamed")
          .contains("Org 3");
    }

    @Test
    void reportsAChangedType() throws IOException {
      Org org = Export.clean().artifact().get(0);
      Org retyped =
          new Org(org.name(), org.category(), org.country(), OrgType.BAZ, org.attributes());

      ExportVerifier.Result result = verify(Export.clean().withArtifactOrg(0, retyped));

      assertThat(result.differences()).singleElement(STRING).contains("type").contains("BAZ");
    }

    @Test
    void reportsAChangedAttributeQuantity() throws IOException {
      Org org = Export.clean().artifact().get(2); // _id 1004
      Attr size = org.attributes().get(1);
      Org changed =
          org(
              4,
              org.attributes().get(0),
              new Attr(
                  size.id(), (byte) 99, size.amount(), size.size(), size.percent(), size.active()));

      ExportVerifier.Result result = verify(Export.clean().withArtifactOrg(2, changed));

      assertThat(result.totalDifferences()).isEqualTo(1);
      assertThat(result.differences())
          .singleElement(STRING)
          .contains("1004")
          .contains("attributes[1].quantity")
          .contains("99");
    }

    @Test
    void reportsADifferentNumberOfAttributes() throws IOException {
      ExportVerifier.Result result =
          verify(Export.clean().withArtifactOrg(0, org(1, attr("color", 0.5))));

      assertThat(result.differences())
          .singleElement(STRING)
          .contains("1001")
          .contains("attributes");
    }

    @Test
    void reportsANaNPercentExportedAsZero() throws IOException {
      var source = new ArrayList<SourceRecord>(List.of(accepted(1, org(1, attr("x", Double.NaN)))));

      ExportVerifier.Result result =
          verify(new Export(source, List.of(org(1, attr("x", 0.0))), List.of()));

      assertThat(result.differences()).singleElement(STRING).contains("attributes[0].percent");
    }

    @Test
    void reportsANegativeZeroPercentExportedAsPositiveZero() throws IOException {
      var source = new ArrayList<SourceRecord>(List.of(accepted(1, org(1, attr("x", -0.0)))));

      ExportVerifier.Result result =
          verify(new Export(source, List.of(org(1, attr("x", 0.0))), List.of()));

      assertThat(result.differences())
          .singleElement(STRING)
          .contains("attributes[0].percent")
          .contains("0x8000000000000000");
    }

    @Test
    void acceptsANaNPercentExportedAsNaN() throws IOException {
      var source = new ArrayList<SourceRecord>(List.of(accepted(1, org(1, attr("x", Double.NaN)))));

      ExportVerifier.Result result =
          verify(new Export(source, List.of(org(1, attr("x", Double.NaN))), List.of()));

      assertThat(result.clean()).isTrue();
    }
  }

  @Nested
  class Records {

    @Test
    void reportsARecordMissingFromTheArtifact() throws IOException {
      Export clean = Export.clean();
      Export missing =
          new Export(
              clean.source(),
              clean.artifact().subList(0, clean.artifact().size() - 1),
              clean.rejects());

      ExportVerifier.Result result = verify(missing);

      assertThat(result.differences())
          .singleElement(STRING)
          .contains("1006")
          .contains("missing from the artifact");
    }

    @Test
    void reportsAnExtraRecordInTheArtifact() throws IOException {
      Export clean = Export.clean();
      var artifact = new ArrayList<>(clean.artifact());
      artifact.add(org(7));

      ExportVerifier.Result result = verify(new Export(clean.source(), artifact, clean.rejects()));

      assertThat(result.differences()).singleElement(STRING).contains("1 organizations more");
    }

    @Test
    void reportsARejectMissingFromTheRejectsFile() throws IOException {
      Export clean = Export.clean();

      ExportVerifier.Result result =
          verify(new Export(clean.source(), clean.artifact(), clean.rejects().subList(0, 1)));

      assertThat(result.differences())
          .singleElement(STRING)
          .contains("1005")
          .contains("rejects.jsonl");
    }

    @Test
    void reportsARejectsLineForAnotherDocument() throws IOException {
      Export clean = Export.clean();
      List<Reject> rejects = List.of(clean.rejects().get(0), reject(new BsonInt32(42)));

      ExportVerifier.Result result = verify(new Export(clean.source(), clean.artifact(), rejects));

      assertThat(result.differences())
          .singleElement(STRING)
          .contains("1005")
          .contains("found _id")
          .contains("42");
    }

    @Test
    void reportsRejectsLinesLeftOver() throws IOException {
      Export clean = Export.clean();
      var rejects = new ArrayList<>(clean.rejects());
      rejects.add(reject(new BsonInt32(42)));

      ExportVerifier.Result result = verify(new Export(clean.source(), clean.artifact(), rejects));

      assertThat(result.differences()).singleElement(STRING).contains("rejects.jsonl");
    }

    @Test
    void acceptsARejectWithoutId() throws IOException {
      Reject noId = new Reject(null, "_id", "missing");
      var source = new ArrayList<SourceRecord>(List.of(new SourceRecord.Rejected(noId)));

      ExportVerifier.Result result = verify(new Export(source, List.of(), List.of(noId)));

      assertThat(result.differences()).isEmpty();
    }
  }

  @Nested
  class Limits {

    private Export withRenamedOrgs() {
      Export export = Export.clean();
      for (int i = 0; i < export.artifact().size(); i++) {
        Org org = export.artifact().get(i);
        export =
            export.withArtifactOrg(
                i,
                new Org(
                    org.name() + "!", org.category(), org.country(), org.type(), org.attributes()));
      }
      return export;
    }

    @Test
    void keepsTheFirstMaxDifferencesButCountsThemAll() throws IOException {
      ExportVerifier.Result result = verify(new ExportVerifier(2), withRenamedOrgs());

      assertThat(result.differences()).hasSize(2);
      assertThat(result.differences().get(0)).contains("1001");
      assertThat(result.differences().get(1)).contains("1003");
      assertThat(result.totalDifferences()).isEqualTo(4);
      assertThat(result.clean()).isFalse();
    }

    @Test
    void zeroMaxDifferencesStillCountsThem() throws IOException {
      ExportVerifier.Result result = verify(new ExportVerifier(0), withRenamedOrgs());

      assertThat(result.differences()).isEmpty();
      assertThat(result.totalDifferences()).isEqualTo(4);
      assertThat(result.clean()).isFalse();
    }
  }
}
