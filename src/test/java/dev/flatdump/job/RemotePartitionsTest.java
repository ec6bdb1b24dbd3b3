package dev.flatdump.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RemotePartitionsTest {

  @Test
  void takesATcpBrokerAndATimeoutOfThreeHeartbeatsAtLeast() {
    var remote = new RemotePartitions("tcp://10.0.0.5:61616", Duration.ofSeconds(3));
    assertThat(remote.broker()).isEqualTo("tcp://10.0.0.5:61616");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new RemotePartitions("tcp://h:1", Duration.ofSeconds(2)))
        .withMessage("the worker timeout must be at least 3 s (3 heartbeats), got PT2S");
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://h:61616", "tcp://h", "h:61616", "tcp://:61616", "tcp://h:x"})
  void refusesABrokerThatIsNotTcpHostPort(String broker) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> RemotePartitions.requireBroker(broker))
        .withMessageContaining("--broker must be tcp://HOST:PORT, got " + broker);
  }
}
