package dev.flatdump.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class S3LocationTest {

  @Nested
  class Parse {

    @Test
    void readsBucketAndPrefix() {
      S3Location location = S3Location.parse("s3://flatdump-exports/orgs/2024-05-01");

      assertThat(location.bucket()).isEqualTo("flatdump-exports");
      assertThat(location.prefix()).isEqualTo("orgs/2024-05-01/");
    }

    @Test
    void readsABucketAloneAsAnEmptyPrefix() {
      assertThat(S3Location.parse("s3://flatdump").prefix()).isEmpty();
      assertThat(S3Location.parse("s3://flatdump/").prefix()).isEmpty();
    }

    @Test
    void treatsATrailingSlashAsTheSameLocation() {
      assertThat(S3Location.parse("s3://flatdump/orgs/"))
          .isEqualTo(S3Location.parse("s3://flatdump/orgs"));
    }

    @Test
    void dropsLeadingSlashesOfThePrefix() {
      assertThat(new S3Location("flatdump", "/orgs/daily").prefix()).isEqualTo("orgs/daily/");
    }

    @Test
    void writesBackWhatItReads() {
      S3Location location = S3Location.parse("s3://flatdump/orgs/daily");

      assertThat(location).hasToString("s3://flatdump/orgs/daily/");
      assertThat(S3Location.parse(location.toString())).isEqualTo(location);
    }

    @ParameterizedTest
    @ValueSource(strings = {"flatdump/orgs", "S3://flatdump/orgs", "https://flatdump/orgs", ""})
    void rejectsAnythingButTheS3Scheme(String uri) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> S3Location.parse(uri))
          .withMessageContaining("s3://bucket/prefix")
          .withMessageContaining("'" + uri + "'");
    }

    @Test
    void rejectsAMissingBucket() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> S3Location.parse("s3:///orgs"))
          .withMessageContaining("no bucket name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3://flatdump/orgs//daily", "s3://flatdump/orgs/../daily"})
    void rejectsEmptyOrRelativeSegments(String uri) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> S3Location.parse(uri))
          .withMessageContaining("S3Location.prefix")
          .withMessageContaining("segments");
    }
  }

  @Nested
  class BucketNames {

    @ParameterizedTest
    @ValueSource(
        strings = {
          "abc",
          "flatdump.exports",
          "a-1.b-2",
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        })
    void acceptsValidNames(String bucket) {
      assertThat(new S3Location(bucket, "").bucket()).isEqualTo(bucket);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ab", "Flatdump", "flat_dump", "-flatdump", "flatdump-", "flatdump."})
    void rejectsNamesOutsideTheCharacterRules(String bucket) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> new S3Location(bucket, ""))
          .withMessageContaining("S3Location.bucket must be 3 to 63 characters")
          .withMessageContaining("'" + bucket + "'");
    }

    @Test
    void rejectsNamesLongerThan63() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> new S3Location("x".repeat(64), ""))
          .withMessageContaining("3 to 63");
    }

    @Test
    void rejectsAdjacentPeriods() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> new S3Location("flat..dump", ""))
          .withMessageContaining("two adjacent periods");
    }

    @Test
    void rejectsIpAddresses() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> new S3Location("192.168.5.4", ""))
          .withMessageContaining("IP address");
    }

    @ParameterizedTest
    @ValueSource(
        strings = {"xn--flatdump", "sthree-flatdump", "flatdump-s3alias", "flatdump--x-s3"})
    void rejectsReservedPrefixesAndSuffixes(String bucket) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> new S3Location(bucket, ""))
          .withMessageContaining("reserved")
          .withMessageContaining(bucket);
    }
  }

  @Nested
  class Keys {

    @Test
    void appendsTheNameToThePrefix() {
      S3Location location = S3Location.parse("s3://flatdump/orgs/daily");

      assertThat(location.key("organizations.fb")).isEqualTo("orgs/daily/organizations.fb");
      assertThat(location.uriOf("manifest.json"))
          .isEqualTo("s3://flatdump/orgs/daily/manifest.json");
    }

    @Test
    void usesTheNameAloneWithoutPrefix() {
      assertThat(S3Location.parse("s3://flatdump").key("manifest.json")).isEqualTo("manifest.json");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/etc/passwd", "shards/", "../manifest.json", "a//b"})
    void rejectsNamesThatAreNotPlainRelativeNames(String name) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> S3Location.parse("s3://flatdump/orgs").key(name))
          .withMessageContaining("'" + name + "'");
    }

    @Test
    void rejectsKeysLongerThanS3Allows() {
      S3Location location = S3Location.parse("s3://flatdump/" + "p".repeat(1000));

      assertThatIllegalArgumentException()
          .isThrownBy(() -> location.key("organizations-00000.fb.zst"))
          .withMessageContaining("1027 bytes; S3 allows 1024");
    }
  }
}
