package io.clusterresolver.azure;

import com.azure.core.http.rest.PagedIterable;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.util.Context;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.NotTheApiException;
import java.util.Iterator;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One ARM listing, page by page through the kit's {@link CloudApi.Session}: each page is one call
 * (retried by the session, under the resolve's deadline), {@code nextLink} followed verbatim,
 * and a page that fails fails the whole listing.
 */
final class Paging {

  private Paging() {}

  /**
   * @param listing the SDK listing for a call context (created afresh for each page and attempt)
   * @return the number of pages
   */
  static <T> int forEach(CloudApi.Session session, String operation, Function<Context, PagedIterable<T>> listing,
      Consumer<T> each) {
    return session.forEachPage(operation,
        (token, remaining) -> {
          try {
            PagedIterable<T> pages = listing.apply(DeadlinePolicy.context(session.deadline()));
            Iterator<PagedResponse<T>> it = (token == null ? pages.iterableByPage() : pages.iterableByPage(token))
                .iterator();
            return it.hasNext() ? it.next() : null;
          } catch (RuntimeException e) {
            throw notTheApi(e).orElse(e);
          }
        },
        page -> page == null ? null : page.getContinuationToken(),
        page -> {
          if (page != null && page.getValue() != null) {
            page.getValue().forEach(each);
          }
        });
  }

  /** The {@link NotTheApiException} behind {@code e} (as the SDK may wrap it): not retried, not counted. */
  private static Optional<RuntimeException> notTheApi(RuntimeException e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof NotTheApiException) {
        return Optional.of((NotTheApiException) c);
      }
    }
    return Optional.empty();
  }

  /** One call (not a listing) under the session's deadline. */
  static <T> T call(CloudApi.Session session, String operation, Function<Context, T> call) {
    return session.call(operation, remaining -> call.apply(DeadlinePolicy.context(session.deadline())));
  }
}
