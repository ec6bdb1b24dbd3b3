package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConnectionStringsTest {

  @Nested
  class Mask {

    @Test
    void masksThePasswordAndKeepsTheUser() {
      assertThat(ConnectionStrings.mask("mongodb://u:p@h/")).isEqualTo("mongodb://u:***@h/");
    }

    @Test
    void masksAnSrvPassword() {
      assertThat(
              ConnectionStrings.mask(
                  "mongodb+srv://reader:s3cr3t@cluster0.example.net/shop?retryWrites=true"))
          .isEqualTo("mongodb+srv://reader:***@cluster0.example.net/shop?retryWrites=true");
    }

    @Test
    void masksAPercentEncodedPasswordWithSpecialCharacters() {
      // p@ss:w/rd?#%
      String uri =
          "mongodb://admin:p%40ss%3Aw%2Frd%3F%23%25@db1.example.com:27017/?authSource=admin";

      assertThat(ConnectionStrings.mask(uri))
          .isEqualTo("mongodb://admin:***@db1.example.com:27017/?authSource=admin");
    }

    @Test
    void masksThePasswordOfAReplicaSetUri() {
      assertThat(ConnectionStrings.mask("mongodb://u:pw@h1:27017,h2:27018/db?replicaSet=rs0"))
          .isEqualTo("mongodb://u:***@h1:27017,h2:27018/db?replicaSet=rs0");
    }

    @Test
    void masksAPasswordQueryParameter() {
      assertThat(ConnectionStrings.mask("mongodb://h/?password=hunter2&ssl=true"))
          .isEqualTo("mongodb://h/?password=***&ssl=true");
    }

    @Test
    void masksSecretQueryParametersIgnoringCase() {
      assertThat(ConnectionStrings.mask("mongodb://h/?PASSWORD=hunter2"))
          .isEqualTo("mongodb://h/?PASSWORD=***");
    }

    @Test
    void masksAuthMechanismProperties() {
      String uri =
          "mongodb://h/?authMechanism=MONGODB-AWS"
              + "&authMechanismProperties=AWS_SESSION_TOKEN:FQoGZXIvYXdzEJr&appName=flatdump";

      assertThat(ConnectionStrings.mask(uri))
          .isEqualTo(
              "mongodb://h/?authMechanism=MONGODB-AWS&authMechanismProperties=***&appName=flatdump");
    }

    @Test
    void masksBothUserInfoAndQueryParameters() {
      assertThat(ConnectionStrings.mask("mongodb://u:pw@h/?authMechanismProperties=TOKEN:abc"))
          .isEqualTo("mongodb://u:***@h/?authMechanismProperties=***");
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "mongodb://localhost:27017",
          "mongodb://localhost:27017/shop?retryWrites=true&w=majority",
          "mongodb://h1:27017,h2:27018/?replicaSet=rs0",
          "mongodb+srv://cluster0.example.net/",
          "mongodb://127.0.0.1/"
        })
    void leavesAUriWithoutCredentialsUnchanged(String uri) {
      assertThat(ConnectionStrings.mask(uri)).isEqualTo(uri);
    }

    @Test
    void keepsTheUserOfAUriWithoutPassword() {
      String masked = ConnectionStrings.mask("mongodb://CN=client@h/?authMechanism=MONGODB-X509");

      assertThat(masked)
          .startsWith("mongodb://CN=client")
          .endsWith("@h/?authMechanism=MONGODB-X509");
    }

    @Test
    void masksEveryUriInAText() {
      String message = "cannot reach mongodb://a:pw1@h1/ nor mongodb+srv://b:pw2@h2/";

      assertThat(ConnectionStrings.mask(message))
          .isEqualTo("cannot reach mongodb://a:***@h1/ nor mongodb+srv://b:***@h2/");
    }

    @Test
    void leavesNullNull() {
      assertThat(ConnectionStrings.mask(null)).isNull();
    }

    @Test
    void masksAllOfAPasswordWithAnUnescapedAt() {
      assertThat(ConnectionStrings.mask("mongodb://u:secret@pw@h/")).doesNotContain("pw");
    }

    @Test
    void masksThePasswordOfAUriWithAMistypedScheme() {
      assertThat(ConnectionStrings.mask("mongo://u:secretpw@h/")).doesNotContain("secretpw");
    }
  }

  @Nested
  class Hosts {

    @Test
    void listsHostAndPortWithoutCredentials() {
      assertThat(ConnectionStrings.hosts("mongodb://u:secretpw@db1.example.com:27017/shop"))
          .isEqualTo("db1.example.com:27017");
    }

    @Test
    void listsEveryHostOfAReplicaSetInOrder() {
      assertThat(
              ConnectionStrings.hosts("mongodb://u:pw@h1:27017,h2:27018,h3:27019/?replicaSet=rs0"))
          .isEqualTo("h1:27017,h2:27018,h3:27019");
    }

    @Test
    void fillsInTheDefaultPortSoOneServerHasOneName() {
      assertThat(ConnectionStrings.hosts("mongodb://localhost/")).isEqualTo("localhost:27017");
    }

    @Test
    void listsTheSrvHost() {
      assertThat(ConnectionStrings.hosts("mongodb+srv://u:pw@cluster0.example.net/"))
          .isEqualTo("cluster0.example.net");
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "mongodb://u:secretpw@h:notaport/",
          "mongodb://u:secretpw@h/?authMechanism=BOGUS",
          "mongodb://u:secretpw@h/?password=secretpw&flag",
          "mongodb://u:p%zzsecretpw@h/"
        })
    void anInvalidUriIsRejectedWithoutItsPassword(String uri) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> ConnectionStrings.hosts(uri))
          .withMessageStartingWith("invalid MongoDB URI mongodb://u:***@h")
          .withMessageNotContaining("secretpw");
    }
  }
}
