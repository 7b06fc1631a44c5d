package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The class path carries the JDK HTTP client only: no Netty, no Reactor Netty, no azure-core-http-netty. */
class NoNettyTest {

  @Test
  void noNettyClassIsLoadable() {
    for (String name : new String[] {"io.netty.channel.Channel", "reactor.netty.http.client.HttpClient",
        "com.azure.core.http.netty.NettyAsyncHttpClientBuilder"}) {
      assertThat(loadable(name)).as(name).isFalse();
    }
  }

  @Test
  void theOnlyHttpClientProviderIsTheJdkOne() {
    assertThat(ServiceLoader.load(com.azure.core.http.HttpClientProvider.class).stream()
        .map(p -> p.type().getName()))
        .containsExactly("com.azure.core.http.jdk.httpclient.JdkHttpClientProvider");
  }

  private static boolean loadable(String name) {
    try {
      Class.forName(name, false, NoNettyTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
