package io.clusterresolver.cloud.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.cloud.Member;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A shared listing's bytes, and which resolves it answers. */
class ListingTest {

  private static final List<Member> MEMBERS = List.of(
      Member.builder("i-1", "10.0.0.1").name("a").label("rôle", "ps & <chief>").accelerators("GPU", 8)
          .creationTime(Instant.parse("2026-11-25T00:00:00.123456789Z")).build(),
      Member.builder("i-2", "[fd00::2]").build());

  private static byte[] bytes(Listing listing, String query) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataOutputStream data = new DataOutputStream(out)) {
      listing.writeTo(data, query);
    }
    return out.toByteArray();
  }

  private static DataInputStream in(byte[] bytes) {
    return new DataInputStream(new ByteArrayInputStream(bytes));
  }

  @Test
  void aListingReadsBackWithEveryFieldOnlyForItsQuery() throws IOException {
    byte[] b = bytes(new Listing(100, 200, MEMBERS), "q");
    assertThat(Listing.readFrom(in(b), "q")).isEqualTo(new Listing(100, 200, MEMBERS));
    assertThat(Listing.readFrom(in(b), "another")).isNull();
  }

  @Test
  void itAnswersAResolveAskedWhileItWasInProgressOrWithinTheMaxAge() throws IOException {
    Listing listing = new Listing(100, 200, MEMBERS);
    byte[] b = bytes(listing, "q");
    assertThat(listing.answers(150, Duration.ZERO)).isTrue();  // in progress when asked
    assertThat(listing.answers(200, Duration.ZERO)).isFalse(); // finished in the millisecond of the ask
    assertThat(listing.answers(250, Duration.ofMillis(150))).isTrue();  // begun 150 ms before
    assertThat(listing.answers(251, Duration.ofMillis(150))).isFalse();
    assertThat(Listing.readIfAnswers(in(b), "q", 150, Duration.ZERO)).isEqualTo(listing);
    assertThat(Listing.readIfAnswers(in(b), "q", 250, Duration.ZERO)).isNull();
  }

  @Test
  void theMembersOfAListingThatDoesNotAnswerAreNotRead() throws IOException {
    byte[] b = bytes(new Listing(100, 200, MEMBERS), "q");
    int header = bytes(new Listing(100, 200, List.of()), "q").length - 4; // up to the member count
    byte[] damaged = Arrays.copyOf(b, header + 2); // the member count itself cut short
    assertThat(Listing.readIfAnswers(in(damaged), "q", 250, Duration.ZERO)).isNull();
    assertThatThrownBy(() -> Listing.readIfAnswers(in(damaged), "q", 150, Duration.ZERO))
        .isInstanceOf(IOException.class);
  }
}
