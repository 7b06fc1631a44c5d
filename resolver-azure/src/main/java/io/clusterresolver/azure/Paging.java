package io.clusterresolver.azure;

import io.clusterresolver.cloud.CloudApi;
import java.util.function.Consumer;

/**
 * One ARM listing, page by page through the kit's {@link CloudApi.Session}: each page is one call
 * (retried by the session, under the resolve's deadline), {@code nextLink} followed verbatim,
 * and a page that fails fails the whole listing (an answer that is not ARM's, a {@code NotTheApiException}, at
 * once: the session neither retries nor counts it).
 */
final class Paging {

  private static final Runnable NOTHING = () -> { };

  private Paging() {}

  /**
   * @return the number of pages
   */
  static <T> int forEach(CloudApi.Session session, String operation, ArmClients.Listing<T> listing,
      Consumer<T> each) {
    return forEach(session, operation, listing, NOTHING, each);
  }

  /**
   * @param onAnswer run as each page's 200 answer arrives, before its body is read
   * @return the number of pages
   */
  static <T> int forEach(CloudApi.Session session, String operation, ArmClients.Listing<T> listing,
      Runnable onAnswer, Consumer<T> each) {
    return session.forEachPage(operation,
        (token, remaining) -> listing.page(token, session.deadline(), onAnswer),
        ArmClients.Page::nextLink,
        page -> page.items().forEach(each));
  }
}
