package dev.flatdump.reader.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class PullSettingsTest {

  @Test
  void defaultsAreTheUploadsAndExportsOnes() {
    PullSettings s = PullSettings.defaults();
    assertThat(s.requestAttempts()).isEqualTo(5);
    assertThat(s.objectAttempts()).isEqualTo(3);
    assertThat(s.keep()).isEqualTo(2);
    assertThat(s.effectiveRegion()).isNull();
    assertThat(s.withEndpointOverride(URI.create("http://minio:9000")).effectiveRegion())
        .isEqualTo("us-east-1");
  }

  @Test
  void refusesBadValuesNamingTheFieldAndNeverEchoingUserInfo() {
    assertThatThrownBy(() -> PullSettings.defaults().withKeep(0))
        .hasMessage("PullSettings.keep must be >= 1, got 0");
    assertThatThrownBy(() -> PullSettings.defaults().withObjectAttempts(21))
        .hasMessage("PullSettings.objectAttempts must be 1 to 20, got 21");
    assertThatThrownBy(
            () -> PullSettings.defaults().withEndpointOverride(URI.create("ftp://minio:9000")))
        .hasMessageContaining("http or https");
    assertThatThrownBy(
            () ->
                PullSettings.defaults()
                    .withEndpointOverride(URI.create("http://key:secret@minio:9000")))
        .hasMessageContaining("minio")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> PullSettings.defaults().withRegion("eu west"))
        .hasMessageContaining("eu west");
  }
}
