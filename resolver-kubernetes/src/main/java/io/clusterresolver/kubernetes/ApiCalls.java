package io.clusterresolver.kubernetes;

import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * How the pod lists are asked of the API server: one {@code GET} of a list's URI, answered in the background with
 * its whole (bounded) body, whatever its status; a transport failure (no answer, a body past its bound or its time)
 * completes it exceptionally. Cancelling a call drops its answer. Two ways: {@link UrlConnectionCalls} for a
 * connection made of a token, a certificate authority and an endpoint, and {@link Fabric8Calls} for what only
 * fabric8's client does (a kubeconfig's users and proxies).
 */
interface ApiCalls {

  /** Sends {@code GET uri} with {@code Accept: application/json}, and the credentials. */
  CompletableFuture<Answer> get(URI uri);

  /**
   * An answer of the API server.
   *
   * @param status the HTTP status
   * @param body the whole body
   * @param headers a header's first value by its name (any case), or {@code null}
   */
  record Answer(int status, byte[] body, UnaryOperator<String> headers) {

    /** Whether the status is a success (2xx). */
    boolean successful() {
      return status / 100 == 2;
    }

    /** The first value of the header {@code name}, or {@code null}. */
    String header(String name) {
      return headers.apply(name);
    }
  }
}
