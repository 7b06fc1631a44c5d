package io.clusterresolver.cloud.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body of at most a given number of bytes: one that says it is longer, or turns out to
 * be, fails the exchange with {@link TooLarge} as soon as that is known, and the rest is never read
 * (an endless or huge answer costs the limit, not the memory it asks for). Error answers (any status
 * but 200) are cut at the limit instead, to be quoted in a message.
 */
final class AtMost implements HttpResponse.BodySubscriber<byte[]> {

  /** A body longer than the limit. */
  static final class TooLarge extends IOException {
    TooLarge(long limit) {
      super("the answer is longer than " + limit + " bytes");
    }
  }

  /** Error bodies are read this far at most (quoted in a message). */
  private static final int ERROR_TEXT = 2048;

  private final int limit;
  private final boolean cut;
  private final long declared;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private Flow.Subscription subscription;

  private AtMost(int limit, boolean cut, long declared) {
    this.limit = limit;
    this.cut = cut;
    this.declared = declared;
  }

  /** Bodies of 200 answers up to {@code limit} bytes, and the first bytes of any other answer. */
  static HttpResponse.BodyHandler<byte[]> handler(int limit) {
    return info -> info.statusCode() == 200
        ? new AtMost(limit, false, info.headers().firstValueAsLong("Content-Length").orElse(-1))
        : new AtMost(ERROR_TEXT, true, -1);
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    if (declared > limit) {
      subscription.cancel();
      result.completeExceptionally(new TooLarge(limit));
    } else {
      subscription.request(Long.MAX_VALUE);
    }
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer item : items) {
      int room = limit - bytes.size();
      if (item.remaining() > room) {
        subscription.cancel();
        if (cut) {
          write(item, room);
          result.complete(bytes.toByteArray());
        } else {
          result.completeExceptionally(new TooLarge(limit));
        }
        return;
      }
      write(item, item.remaining());
    }
  }

  private void write(ByteBuffer item, int n) {
    byte[] chunk = new byte[n];
    item.get(chunk);
    bytes.write(chunk, 0, n);
  }

  @Override
  public void onError(Throwable throwable) {
    result.completeExceptionally(throwable);
  }

  @Override
  public void onComplete() {
    result.complete(bytes.toByteArray());
  }
}
