package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;

/** The WireMock setup every simulation shares, so they all serve alike. */
final class SimulationServer {

  private SimulationServer() {}

  /**
   * Loopback only, on a free port, answered by {@code transformer}. No request journal or stub
   * logging: the simulations keep their own bounded log, and a scale test must not grow the heap.
   * Asynchronous responses, so a delayed (slow or latency) answer does not hold a container thread.
   * HTTP/1.1 on plain http (no h2c upgrade): the JDK's {@code HttpClient} would otherwise move to
   * HTTP/2 on one shared connection, where an injected reset or garbage answer can break the next,
   * healthy call; real cloud APIs speak HTTP/2 only over TLS.
   */
  static WireMockConfiguration loopback(ResponseDefinitionTransformerV2 transformer, int containerThreads) {
    return options()
        .bindAddress("127.0.0.1")
        .dynamicPort()
        .disableRequestJournal()
        .stubRequestLoggingDisabled(true)
        .containerThreads(containerThreads)
        .asynchronousResponseEnabled(true)
        .http2PlainDisabled(true)
        .extensions(transformer);
  }

  /** Starts a server whose every request goes to the transformer named {@code transformerName}. */
  static WireMockServer startAnsweringAll(WireMockConfiguration options, String transformerName) {
    WireMockServer server = new WireMockServer(options);
    server.start();
    server.stubFor(any(anyUrl()).willReturn(aResponse().withTransformers(transformerName)));
    return server;
  }
}
