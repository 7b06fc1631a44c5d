package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.testkit.LogCapture;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A note is said the first time only; a source remembers at most {@link OnceNoted#MAX_NOTED}, then says new ones. */
class OnceNotedTest {

  private static final Logger LOG = System.getLogger(OnceNotedTest.class.getName());

  @Test
  void eachNoteIsFirstOnce() {
    OnceNoted noted = new OnceNoted();
    assertThat(noted.first("projects/p/zones/z/instances/1")).isTrue();
    assertThat(noted.first("projects/p/zones/z/instances/1")).isFalse();
    assertThat(noted.first("projects/p/zones/z/instances/2")).isTrue();
    assertThat(new OnceNoted().first("projects/p/zones/z/instances/1")).as("another source's notes").isTrue();
  }

  @Test
  void aMessageIsLoggedAtItsLevelAndBuiltOnlyTheFirstTime() {
    OnceNoted noted = new OnceNoted();
    AtomicInteger built = new AtomicInteger();
    try (LogCapture logs = new LogCapture()) {
      for (int resolve = 0; resolve < 3; resolve++) {
        noted.log(LOG, Level.INFO, "type v9-8", () -> "once-noted-test: type v9-8 #" + built.incrementAndGet());
        noted.log(LOG, Level.WARNING, "node n UNHEALTHY", () -> "once-noted-test: node n UNHEALTHY");
      }
      assertThat(logs.messages()).filteredOn(m -> m.startsWith("once-noted-test: "))
          .containsExactly("once-noted-test: type v9-8 #1", "once-noted-test: node n UNHEALTHY");
      assertThat(logs.messages(java.util.logging.Level.WARNING)).filteredOn(m -> m.startsWith("once-noted-test: "))
          .containsExactly("once-noted-test: node n UNHEALTHY");
    }
    assertThat(built).hasValue(1);
  }

  @Test
  void pastTheBoundANewNoteIsSaidEveryTimeAndAnOldOneStillOnce() {
    OnceNoted noted = new OnceNoted();
    for (int i = 0; i < OnceNoted.MAX_NOTED; i++) {
      assertThat(noted.first("i-" + i)).isTrue();
    }
    assertThat(noted.first("i-new")).isTrue();
    assertThat(noted.first("i-new")).as("not remembered: said again, never silenced").isTrue();
    assertThat(noted.first("i-0")).isFalse();
  }
}
