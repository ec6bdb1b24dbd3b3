package dev.flatdump.source;

import com.mongodb.ConnectionString;
import java.util.regex.Pattern;

/** Shows MongoDB connection strings without their secrets, for logs, reports and error messages. */
public final class ConnectionStrings {

  private static final Pattern USERINFO = Pattern.compile("(mongodb(?:\\+srv)?://)([^@/]*)@");
  private static final Pattern SECRET_PARAMS =
      Pattern.compile("(?i)((?:password|secret|token|authMechanismProperties)=)[^&]*");

  private ConnectionStrings() {}

  /** The URI with any password or secret query parameter replaced by {@code ***}; the user stays. */
  public static String mask(String uri) {
    if (uri == null) {
      return null;
    }
    String masked =
        USERINFO
            .matcher(uri)
            .replaceAll(
                m -> {
                  String userInfo = m.group(2);
                  int colon = userInfo.indexOf(':');
                  String user = colon < 0 ? userInfo : userInfo.substring(0, colon);
                  return java.util.regex.Matcher.quoteReplacement(m.group(1) + user + ":***@");
                });
    return SECRET_PARAMS.matcher(masked).replaceAll("$1***");
  }

  /** The server list of a connection string, e.g. {@code 127.0.0.1:27017}: safe to store. */
  public static String hosts(String uri) {
    try {
      return String.join(",", new ConnectionString(uri).getHosts());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid MongoDB URI " + mask(uri) + ": " + mask(e.getMessage()), e);
    }
  }
}
