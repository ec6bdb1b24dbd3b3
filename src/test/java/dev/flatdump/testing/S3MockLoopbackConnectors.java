package dev.flatdump.testing;

import java.lang.reflect.Method;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Loaded into the S3Mock process by {@link S3MockServer}, never into the tests' JVM: S3Mock opens a
 * second plain-HTTP connector with no address setting, which would listen on every interface. This
 * post-processor binds every additional Tomcat connector to 127.0.0.1 before the server starts. It
 * uses reflection only, so that it works with the Spring Boot 3 and 4 that S3Mock 4.x and 5.x
 * bundle, and fails the start when it cannot do its job.
 */
public class S3MockLoopbackConnectors implements BeanPostProcessor {

  /** The address every connector binds to. */
  static final String ADDRESS = "127.0.0.1";

  @Override
  public Object postProcessBeforeInitialization(Object bean, String beanName) {
    if (!bean.getClass().getSimpleName().equals("TomcatServletWebServerFactory")) {
      return bean;
    }
    try {
      Method connectors;
      try {
        connectors = bean.getClass().getMethod("getAdditionalTomcatConnectors"); // Boot 3
      } catch (NoSuchMethodException e) {
        connectors = bean.getClass().getMethod("getAdditionalConnectors"); // Boot 4
      }
      for (Object connector : (Iterable<?>) connectors.invoke(bean)) {
        Method setProperty =
            connector.getClass().getMethod("setProperty", String.class, String.class);
        if (!Boolean.TRUE.equals(setProperty.invoke(connector, "address", ADDRESS))) {
          throw new IllegalStateException("cannot bind " + connector + " to " + ADDRESS);
        }
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot bind S3Mock's connectors to " + ADDRESS, e);
    }
    return bean;
  }
}
