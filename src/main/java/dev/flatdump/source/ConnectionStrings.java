package dev.flatdump.source;

import com.mongodb.ConnectionString;
import com.mongodb.ServerAddress;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Shows MongoDB connection strings without their secrets, for logs, reports and error messages. */
public final class ConnectionStrings {

  /**
   * Any scheme (a mistyped one too), then user info up to the LAST {@code @} before the path: an
   * unencoded {@code @} in a password must not leave the password's tail visible.
   */
  private static final Pattern USERINFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)([^/?#]*)@");

  private static final Pattern SECRET_PARAMS =
      Pattern.compile("(?i)((?:password|secret|token|authMechanismProperties)=)[^&]*");

  private ConnectionStrings() {}

  /**
   * The URI with any password or secret query parameter replaced by {@code ***}; the user stays.
   */
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
                  String shown = colon < 0 ? userInfo : userInfo.substring(0, colon) + ":***";
                  return Matcher.quoteReplacement(m.group(1) + shown + "@");
                });
    return SECRET_PARAMS.matcher(masked).replaceAll("$1***");
  }

  /**
   * The server list of a connection string as {@code host:port} with the default port filled in (so
   * {@code localhost} and {@code localhost:27017} name the same source): safe to store.
   */
  public static String hosts(String uri) {
    try {
      ConnectionString cs = new ConnectionString(uri);
      if (Boolean.TRUE.equals(cs.isSrvProtocol())) {
        return String.join(",", cs.getHosts()); // a DNS name that resolves to the servers: no port
      }
      return cs.getHosts().stream()
          .map(h -> new ServerAddress(h).toString())
          .collect(Collectors.joining(","));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid MongoDB URI " + mask(uri) + ": " + mask(e.getMessage()), e);
    }
  }
}
