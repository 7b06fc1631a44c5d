package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolverException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link MemberOrder#byTag(String, MemberOrder)}: a rank for the members that carry one, another order for the rest. */
class MemberOrderTest {

  private static final MemberOrder RANK_ELSE_AGE = MemberOrder.byTag("rank", MemberOrder.CREATION_TIME);

  @Test
  void membersWithTheTagGoByItsValueTheOthersAfterThemInTheOtherOrder() {
    List<Member> members = new ArrayList<>(List.of(
        member("a", 30, "10"), member("b", 10, "2"), member("c", 20, null), member("d", 5, null),
        member("e", 1, "-1"), Member.builder("f", "10.0.0.6").build(), member("g", 5, null)));
    Collections.shuffle(members, new Random(21));

    members.sort(RANK_ELSE_AGE.comparator());

    // By hand: ranks -1, 2, 10 (e, b, a); then by creation time 5, 5 (d, g: by id), 20 (c); no creation time last (f).
    assertThat(members).extracting(Member::id).containsExactly("e", "b", "a", "d", "g", "c", "f");
    assertThat(RANK_ELSE_AGE).hasToString("tag:rank, then creation-time");
  }

  @Test
  void withNoMemberTaggedItIsTheOtherOrderAndWithEveryOneTheTagsOrder() {
    Random random = new Random(7);
    for (int n = 0; n < 200; n++) {
      List<Member> untagged = new ArrayList<>();
      List<Member> tagged = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        long created = random.nextInt(6);
        untagged.add(member("m" + i, created, null));
        tagged.add(member("m" + i, created, Integer.toString(random.nextInt(6))));
      }
      assertThat(sorted(untagged, RANK_ELSE_AGE)).isEqualTo(sorted(untagged, MemberOrder.CREATION_TIME));
      assertThat(sorted(tagged, RANK_ELSE_AGE)).isEqualTo(sorted(tagged, MemberOrder.byTag("rank")));
    }
  }

  @Test
  void aTagThatIsNotAnIntegerStillFailsTheLayoutNamingTheMember() {
    List<Member> members = new ArrayList<>(List.of(member("a", 1, "first"), member("b", 2, "2")));
    assertThat(catchThrowable(() -> members.sort(RANK_ELSE_AGE.comparator())))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessage("Member a has tag rank='first', which is not an integer: the order tag:rank needs integer values");
  }

  private static List<Member> sorted(List<Member> members, MemberOrder order) {
    List<Member> copy = new ArrayList<>(members);
    copy.sort(order.comparator());
    return copy;
  }

  private static Member member(String id, long created, String rank) {
    Member.Builder b = Member.builder(id, "10.0.0." + (id.hashCode() & 0xff)).creationTime(Instant.ofEpochSecond(created));
    if (rank != null) {
      b.label("rank", rank);
    }
    return b.build();
  }
}
