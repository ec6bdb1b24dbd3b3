package dev.flatdump.job;

import dev.flatdump.publish.S3Location;
import dev.flatdump.publish.S3Settings;
import java.net.URI;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;

/**
 * Where {@code uploadStep} sends a finished export, validated when built. These job parameters are
 * not identifying: a failed upload can be restarted with a corrected endpoint. Credentials are
 * never here: the AWS SDK's default chain provides them.
 *
 * @param target {@code s3://bucket/prefix}, or null for no upload
 * @param endpoint an S3-compatible server (MinIO, ...), or null for AWS
 * @param region the region, or null for the SDK's default chain
 * @param pathStyle path-style addressing ({@code http://host/bucket/key}), as MinIO needs
 */
public record UploadOptions(String target, String endpoint, String region, boolean pathStyle) {

  public static final UploadOptions NONE = new UploadOptions(null, null, null, false);

  static final String TARGET = "upload";
  static final String ENDPOINT = "s3Endpoint";
  static final String REGION = "s3Region";
  static final String PATH_STYLE = "s3PathStyle";

  public UploadOptions {
    target = blankToNull(target);
    endpoint = blankToNull(endpoint);
    region = blankToNull(region);
    if (target != null) {
      S3Location.parse(target);
    }
    if (endpoint != null) {
      settings(endpoint, region, pathStyle);
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  public boolean enabled() {
    return target != null;
  }

  public S3Location location() {
    return S3Location.parse(target);
  }

  public S3Settings settings() {
    return settings(endpoint, region, pathStyle);
  }

  private static S3Settings settings(String endpoint, String region, boolean pathStyle) {
    S3Settings s = S3Settings.defaults().withPathStyleAccess(pathStyle);
    if (endpoint != null) {
      s = s.withEndpointOverride(URI.create(endpoint));
    }
    if (region != null) {
      s = s.withRegion(region);
    }
    return s;
  }

  /** Adds these options to {@code params}, replacing earlier upload options. */
  JobParameters addTo(JobParameters params) {
    var b = new JobParametersBuilder(params);
    b.addString(TARGET, target == null ? "" : target, false);
    b.addString(ENDPOINT, endpoint == null ? "" : endpoint, false);
    b.addString(REGION, region == null ? "" : region, false);
    b.addString(PATH_STYLE, Boolean.toString(pathStyle), false);
    return b.toJobParameters();
  }

  static UploadOptions from(JobParameters p) {
    return new UploadOptions(
        p.getString(TARGET),
        p.getString(ENDPOINT),
        p.getString(REGION),
        Boolean.parseBoolean(p.getString(PATH_STYLE)));
  }
}
