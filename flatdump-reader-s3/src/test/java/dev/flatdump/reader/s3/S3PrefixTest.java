package dev.flatdump.reader.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class S3PrefixTest {

  @Test
  void parsesBucketAndPrefixAsUploadWritesThem() {
    S3Prefix p = S3Prefix.parse("s3://artifacts/nightly/orgs/");
    assertThat(p.bucket()).isEqualTo("artifacts");
    assertThat(p.prefix()).isEqualTo("nightly/orgs/");
    assertThat(p.key("CURRENT")).isEqualTo("nightly/orgs/CURRENT");
    assertThat(p.uriOf("exports/N/a.fb")).isEqualTo("s3://artifacts/nightly/orgs/exports/N/a.fb");
    assertThat(S3Prefix.parse("s3://artifacts/nightly/orgs")).isEqualTo(p);
    assertThat(S3Prefix.parse("s3://artifacts").key("CURRENT")).isEqualTo("CURRENT");
  }

  @Test
  void refusesWhatIsNotABucketAndPrefix() {
    assertThatThrownBy(() -> S3Prefix.parse("http://artifacts/x"))
        .hasMessageContaining("s3://bucket/prefix");
    assertThatThrownBy(() -> S3Prefix.parse("s3:///x")).hasMessageContaining("no bucket name");
    assertThatThrownBy(() -> S3Prefix.parse("s3://Artifacts/x"))
        .hasMessageContaining("'Artifacts'");
    assertThatThrownBy(() -> S3Prefix.parse("s3://artifacts/a/../b")).hasMessageContaining("'..'");
  }
}
