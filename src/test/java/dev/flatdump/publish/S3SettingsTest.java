package dev.flatdump.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.URI;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class S3SettingsTest {

  private static final long MIB = S3Settings.MIB;

  @Nested
  class Defaults {

    @Test
    void targetAwsWith64MibPartsAndBoundedRetries() {
      S3Settings settings = S3Settings.defaults();

      assertThat(settings.endpointOverride()).isNull();
      assertThat(settings.region()).isNull();
      assertThat(settings.pathStyleAccess()).isFalse();
      assertThat(settings.multipartThresholdBytes()).isEqualTo(64 * MIB);
      assertThat(settings.partSizeBytes()).isEqualTo(64 * MIB);
      assertThat(settings.maxAttempts()).isEqualTo(5);
    }

    @Test
    void leaveTheRegionToTheSdkChain() {
      assertThat(S3Settings.defaults().effectiveRegion()).isEmpty();
    }

    @Test
    void useUsEast1WithAnEndpointOverride() {
      S3Settings settings =
          S3Settings.defaults().withEndpointOverride(URI.create("http://127.0.0.1:9000"));

      assertThat(settings.effectiveRegion()).contains("us-east-1");
    }

    @Test
    void preferAGivenRegion() {
      S3Settings settings =
          S3Settings.defaults()
              .withEndpointOverride(URI.create("http://127.0.0.1:9000"))
              .withRegion("eu-west-1");

      assertThat(settings.effectiveRegion()).contains("eu-west-1");
    }
  }

  @Nested
  class Withers {

    @Test
    void changeOnlyTheirOwnField() {
      S3Settings settings =
          S3Settings.defaults()
              .withEndpointOverride(URI.create("https://minio.internal:9000"))
              .withRegion(" EU-West-1 ")
              .withPathStyleAccess(true)
              .withMultipart(5 * MIB, 8 * MIB)
              .withMaxAttempts(3);

      assertThat(settings)
          .isEqualTo(
              new S3Settings(
                  URI.create("https://minio.internal:9000"),
                  "eu-west-1",
                  true,
                  5 * MIB,
                  8 * MIB,
                  3));
    }
  }

  @Nested
  class Validation {

    @ParameterizedTest
    @ValueSource(strings = {"ftp://host/", "localhost:9000", "/relative"})
    void rejectsEndpointsThatAreNotHttpUris(String endpoint) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> S3Settings.defaults().withEndpointOverride(URI.create(endpoint)))
          .withMessageContaining("S3Settings.endpointOverride must be an http or https URI");
    }

    @Test
    void rejectsUserInfoWithoutEchoingIt() {
      assertThatIllegalArgumentException()
          .isThrownBy(
              () ->
                  S3Settings.defaults()
                      .withEndpointOverride(URI.create("http://AKIA:s3cr3t@127.0.0.1:9000")))
          .withMessageContaining("must not have user info")
          .withMessageNotContaining("s3cr3t");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "eu west 1", "eu_west_1", "-eu"})
    void rejectsMalformedRegions(String region) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> S3Settings.defaults().withRegion(region))
          .withMessageContaining("S3Settings.region");
    }

    @Test
    void rejectsPartsBelowS3sMinimum() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> S3Settings.defaults().withMultipart(5 * MIB, 5 * MIB - 1))
          .withMessageContaining("S3Settings.partSizeBytes must be 5242880 (5 MiB)")
          .withMessageContaining("got 5242879");
    }

    @Test
    void rejectsThresholdsAboveTheLargestSinglePut() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> S3Settings.defaults().withMultipart(5 * 1024 * MIB + 1, 64 * MIB))
          .withMessageContaining("S3Settings.multipartThresholdBytes");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 21})
    void boundsTheAttempts(int attempts) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> S3Settings.defaults().withMaxAttempts(attempts))
          .withMessageContaining("S3Settings.maxAttempts must be 1 to 20, got " + attempts);
    }
  }

  @Nested
  class Parts {

    @Test
    void uploadsFilesAboveTheThresholdInParts() {
      S3Settings settings = S3Settings.defaults().withMultipart(5 * MIB, 5 * MIB);

      assertThat(settings.multipart(5 * MIB)).isFalse();
      assertThat(settings.multipart(5 * MIB + 1)).isTrue();
    }

    @Test
    void keepsThePartSizeWhileTenThousandPartsSuffice() {
      S3Settings settings = S3Settings.defaults().withMultipart(5 * MIB, 5 * MIB);

      assertThat(settings.partSizeFor(10_000 * 5 * MIB)).isEqualTo(5 * MIB);
    }

    @Test
    void growsThePartSizeInWholeMibBeyondTenThousandParts() {
      S3Settings settings = S3Settings.defaults().withMultipart(5 * MIB, 5 * MIB);

      long size = 10_000 * 5 * MIB + 1;

      assertThat(settings.partSizeFor(size)).isEqualTo(6 * MIB);
      assertThat((size + 6 * MIB - 1) / (6 * MIB)).isLessThanOrEqualTo(10_000);
    }
  }
}
