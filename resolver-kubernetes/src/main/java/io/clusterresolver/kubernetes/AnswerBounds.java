package io.clusterresolver.kubernetes;

import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.BoundedAnswers;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

/**
 * fabric8's hook for the kit's {@link BoundedAnswers}: every answer of the API server at most the
 * {@link AnswerLimit}, the whole body within the request timeout (the JDK client's own timeout ends
 * with the headers). A body that breaks either ends the exchange at once, so a 500 MB or endless
 * answer costs at most the limit in memory.
 */
final class AnswerBounds implements Interceptor {

  private final BoundedAnswers bounds;

  AnswerBounds(AnswerLimit limit, Duration within) {
    this.bounds = BoundedAnswers.of(limit, within);
  }

  @Override
  public AsyncBody.Consumer<List<ByteBuffer>> consumer(AsyncBody.Consumer<List<ByteBuffer>> consumer,
      HttpRequest request) {
    AnswerLimit.Meter meter = bounds.meter(request.uri(), bounds.timeout());
    return new AsyncBody.Consumer<>() {
      @Override
      public void consume(List<ByteBuffer> buffers, AsyncBody body) throws Exception {
        // Throwing ends the exchange: the client cancels the body and fails the call with this cause.
        long bytes = 0;
        for (ByteBuffer buffer : buffers) {
          bytes += buffer.remaining();
        }
        meter.add(bytes);
        consumer.consume(buffers, body);
      }

      @Override
      public <U> U unwrap(Class<U> target) {
        return consumer.unwrap(target);
      }
    };
  }
}
